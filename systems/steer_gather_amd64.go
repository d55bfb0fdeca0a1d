//go:build !purego

package systems

import "golang.org/x/sys/cpu"

// gatherKernel reports whether gatherRun runs gatherRunKernel (AVX2; the
// kernel only moves bits, so any GOAMD64 level may use it).
var gatherKernel = cpu.X86.HasAVX2

// setGatherKernel lets gatherRun run its kernel or not (where the
// processor has AVX2), for tests; it returns the previous setting.
func setGatherKernel(on bool) bool {
	old := gatherKernel
	gatherKernel = on && cpu.X86.HasAVX2
	return old
}

// gatherRunKernel is gatherRunGo on g's agents (g.n ≥ 1): it stores the
// record of each agent, in order, while the agent qualifies (see
// gatherRun), with non-temporal stores as storeAgent's, and returns how
// many it stored. The caller fences the stores (storeFence) before another
// goroutine reads them.
//
//go:noescape
func gatherRunKernel(args *gatherArgs) int
