package comm

import "sync"

// RunLocal runs f as each of the p processes of a Local group, each in a
// goroutine of its own, and returns every process's error, in rank order.
// A process whose f fails aborts the group, so that the others' pending
// and later operations fail instead of waiting for it.
func RunLocal(p int, f func(c Comm) error) []error {
	cs := Local(p)
	errs := make([]error, p)
	var wg sync.WaitGroup
	for r := range p {
		wg.Go(func() {
			if errs[r] = f(cs[r]); errs[r] != nil {
				cs[r].Abort(1, errs[r].Error())
			}
		})
	}
	wg.Wait()
	return errs
}
