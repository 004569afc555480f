// Package par runs loops on a bounded number of goroutines.
package par

import "sync"

// ForEach calls f(i) for every i in [0,n) on up to par goroutines and
// returns when all calls have returned. Indices are handed out in chunks,
// so f should not depend on which goroutine runs it.
func ForEach(n, par int, f func(i int)) {
	ForEachWith(n, par, func() struct{} { return struct{}{} }, func(_ struct{}, i int) { f(i) })
}

// ForEachWith is ForEach with scratch space: each goroutine makes its own
// with mk and passes it to every f it calls.
func ForEachWith[S any](n, par int, mk func() S, f func(scratch S, i int)) {
	if n <= 0 {
		return
	}
	if par <= 1 || n == 1 {
		s := mk()
		for i := 0; i < n; i++ {
			f(s, i)
		}
		return
	}
	par = min(par, n)
	chunk := max(1, n/(par*8))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(par)
	for w := 0; w < par; w++ {
		go func() {
			defer wg.Done()
			s := mk()
			for {
				mu.Lock()
				lo := next
				next += chunk
				mu.Unlock()
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					f(s, i)
				}
			}
		}()
	}
	wg.Wait()
}
