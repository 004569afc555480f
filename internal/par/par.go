// Package par runs loops over indices on a bounded number of goroutines.
// It is the module's one way of running work in parallel besides the
// replay's scheduler (package replay) and the clock model's solver, whose
// passes (the product by the normal matrix and the preconditioner,
// hundreds of times per solve) start their own goroutines and work beside
// them, the rows split into fixed parts, one goroutine each, the blocks
// and the coarse solve handed out as tasks:
// an errgroup with a limit, the indices handed out in
// chunks (DoEach, DoEachWith: one at a time, in order). Do and DoEach
// stop at the first error or when their context is cancelled; ForEach and
// ForEachWith are for loops that cannot fail.
package par

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Workers is the module's one rule for a Parallel option: n goroutines
// when n > 0, else one per CPU (GOMAXPROCS).
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Do calls f(i) for every i in [0,n) on up to par goroutines (par ≤ 0:
// one per CPU, Workers) and returns the first error. After an error or the cancellation of
// ctx no further index is started, and Do returns that error (ctx.Err()
// for a cancellation). Indices are handed out in chunks, so f should not
// depend on which goroutine runs it.
func Do(ctx context.Context, n, par int, f func(i int) error) error {
	return run(ctx, n, par, 0, func() struct{} { return struct{}{} }, func(_ struct{}, i int) error { return f(i) })
}

// DoEach is Do with the indices handed out one at a time, in ascending
// order: for items each large enough to keep a goroutine busy, and for
// items ordered largest first, so that the last to finish are small
// (chunks would hand one goroutine several of the largest).
func DoEach(ctx context.Context, n, par int, f func(i int) error) error {
	return DoEachWith(ctx, n, par, func() struct{} { return struct{}{} }, func(_ struct{}, i int) error { return f(i) })
}

// DoEachWith is DoEach with scratch space: each goroutine makes its own
// with mk and passes it to every f it calls.
func DoEachWith[S any](ctx context.Context, n, par int, mk func() S, f func(scratch S, i int) error) error {
	return run(ctx, n, par, 1, mk, f)
}

// ForEach calls f(i) for every i in [0,n) on up to par goroutines and
// returns when all calls have returned.
func ForEach(n, par int, f func(i int)) {
	ForEachWith(n, par, func() struct{} { return struct{}{} }, func(_ struct{}, i int) { f(i) })
}

// ForEachWith is ForEach with scratch space: each goroutine makes its own
// with mk and passes it to every f it calls.
func ForEachWith[S any](n, par int, mk func() S, f func(scratch S, i int)) {
	_ = run(context.Background(), n, par, 0, mk, func(s S, i int) error { f(s, i); return nil })
}

// run is Do with scratch space, handing out chunk indices at a time (0:
// about an eighth of each goroutine's share).
func run[S any](ctx context.Context, n, par, chunk int, mk func() S, f func(S, int) error) error {
	if n <= 0 {
		return ctx.Err()
	}
	par = min(Workers(par), n)
	if chunk <= 0 {
		chunk = max(1, n/(par*8))
	}
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(par)
	for range par {
		g.Go(func() error {
			s := mk()
			for {
				if err := ctx.Err(); err != nil {
					return err
				}
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return nil
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					if err := f(s, i); err != nil {
						return err
					}
				}
			}
		})
	}
	return g.Wait()
}
