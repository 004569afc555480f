// Package partition divides a trace's locations among the processes of
// a divided correction (clc-correct under mpirun or srun, docs/scale.md):
// contiguous blocks of the nodes of about equal events (Block, what
// repair/job uses), the nodes dealt round-robin (Cyclic), or blocks
// refined to cut fewer messages (Comm). A node's locations, its clock
// domain, always stay in one part. Package internal/scalestudy measures
// what each division costs.
package partition

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/clc-tools/clc/replay"
)

// Scheme is a way of dividing a trace's nodes among the parts.
type Scheme string

// The schemes. Every scheme keeps a node's locations (its clock domain)
// in one part.
const (
	// Block cuts the nodes, in their order (contiguous ranks), into runs
	// of about equal events.
	Block Scheme = "block"
	// Cyclic deals the nodes round-robin: node i to part i mod P.
	Cyclic Scheme = "cyclic"
	// Comm starts from Block and moves nodes between parts, and swaps
	// them, while that cuts point-to-point messages and keeps every part
	// within Imbalance of the mean events (Kernighan and Lin's exchanges,
	// applied greedily).
	Comm Scheme = "comm"
)

// Schemes lists the schemes.
var Schemes = []Scheme{Block, Cyclic, Comm}

// ParseScheme parses a scheme's name.
func ParseScheme(s string) (Scheme, error) {
	for _, x := range Schemes {
		if strings.EqualFold(s, string(x)) {
			return x, nil
		}
	}
	return "", fmt.Errorf("unknown scheme %q (want block, cyclic or comm)", s)
}

// Imbalance is how far above the mean events per part Comm may fill a
// part.
const Imbalance = 0.03

// commPasses bounds Comm's passes over the nodes.
const commPasses = 8

// Plan assigns every location to one of Parts parts.
type Plan struct {
	Scheme Scheme
	Parts  int
	// Of is each location's part.
	Of []int32
}

// NewPlan divides the locations, whose nodes node and numbers of events
// events give, into parts parts by scheme; g (needed by Comm) is the
// happened-before relation. Every part gets at least one node.
func NewPlan(scheme Scheme, parts int, node []int32, events []int64, g *replay.Graph) (*Plan, error) {
	if len(node) != len(events) {
		return nil, fmt.Errorf("%d locations' nodes but %d locations' events", len(node), len(events))
	}
	// The nodes that hold locations, numbered in their order.
	ids := map[int32]int32{}
	var used []int32
	for li, n := range node {
		if n < 0 {
			return nil, fmt.Errorf("location %d has no node", li)
		}
		if _, ok := ids[n]; !ok {
			ids[n] = 0
			used = append(used, n)
		}
	}
	slices.Sort(used)
	for i, n := range used {
		ids[n] = int32(i)
	}
	nn := len(used)
	if parts < 1 || parts > nn {
		return nil, fmt.Errorf("%d parts of %d nodes: a part holds whole nodes, at least one", parts, nn)
	}
	dense := make([]int32, len(node))
	for li, n := range node {
		dense[li] = ids[n]
	}
	node = dense
	nodeEv := make([]int64, nn)
	for li, n := range node {
		nodeEv[n] += events[li]
	}
	var of []int32 // per node
	switch scheme {
	case Block:
		of = blocks(nodeEv, parts)
	case Cyclic:
		of = make([]int32, nn)
		for i := range of {
			of[i] = int32(i % parts)
		}
	case Comm:
		if g == nil {
			return nil, fmt.Errorf("scheme %s needs the happened-before relation", scheme)
		}
		of = refine(blocks(nodeEv, parts), nodeEv, nodeGraph(g, node, nn), parts)
	default:
		return nil, fmt.Errorf("unknown scheme %q", scheme)
	}
	p := &Plan{Scheme: scheme, Parts: parts, Of: make([]int32, len(node))}
	for li, n := range node {
		p.Of[li] = of[n]
	}
	return p, nil
}

// blocks cuts the nodes, in order, into parts runs: run k starts at the
// first node whose events before it reach k/parts of all (never leaving a
// run empty), and returns each node's run.
func blocks(nodeEv []int64, parts int) []int32 {
	nn := len(nodeEv)
	var total int64
	for _, e := range nodeEv {
		total += e
	}
	start := make([]int, parts+1)
	start[parts] = nn
	var before int64
	k := 1
	for i := 0; i < nn && k < parts; i++ {
		// Node i starts run k once the events before it reach k/parts
		// of all (run k−1 holding a node), or when every node left is
		// needed for a run of its own.
		if i > start[k-1] && (float64(before) >= float64(k)*float64(total)/float64(parts) || nn-i == parts-k) {
			start[k] = i
			k++
		}
		before += nodeEv[i]
	}
	of := make([]int32, nn)
	for r := range parts {
		for i := start[r]; i < start[r+1]; i++ {
			of[i] = int32(r)
		}
	}
	return of
}

// edge is a node's point-to-point messages with another node.
type edge struct {
	to int32
	w  int64
}

// nodeGraph returns, per node, the point-to-point messages it sends to or
// receives from every other node (counted once per message, at both ends).
func nodeGraph(g *replay.Graph, node []int32, nn int) [][]edge {
	w := make([]map[int32]int64, nn)
	for li, deps := range g.Deps {
		a := node[li]
		for _, d := range deps {
			if d.Role != replay.RoleSend {
				continue
			}
			b := node[d.Peer]
			if a == b {
				continue
			}
			for _, x := range [2][2]int32{{a, b}, {b, a}} {
				if w[x[0]] == nil {
					w[x[0]] = map[int32]int64{}
				}
				w[x[0]][x[1]]++
			}
		}
	}
	adj := make([][]edge, nn)
	for a, m := range w {
		for b, c := range m {
			adj[a] = append(adj[a], edge{b, c})
		}
		slices.SortFunc(adj[a], func(x, y edge) int { return cmp.Compare(x.to, y.to) })
	}
	return adj
}

// refine improves a division of the nodes (of: each node's part) by
// moves and swaps that cut point-to-point messages (Kernighan and Lin's
// exchanges, applied greedily): each pass visits the nodes in order and
// applies the best of moving the node to another part and swapping it with
// a node of that part, if that cuts messages and leaves no part above
// Imbalance over the mean events (or above its own events, for a part that
// was above it already), and every part a node.
func refine(of []int32, nodeEv []int64, adj [][]edge, parts int) []int32 {
	nn := len(of)
	var total int64
	load := make([]int64, parts)
	members := make([][]int32, parts)
	for i, p := range of {
		load[p] += nodeEv[i]
		members[p] = append(members[p], int32(i))
		total += nodeEv[i]
	}
	limit := int64((1 + Imbalance) * float64(total) / float64(parts))
	fits := func(p int32, after int64) bool { return after <= max(limit, load[p]) }
	// ext[i*parts+p] is node i's messages with the nodes of part p.
	ext := make([]int64, nn*parts)
	for i := range nn {
		for _, e := range adj[i] {
			ext[i*parts+int(of[e.to])] += e.w
		}
	}
	weight := func(i, j int32) int64 {
		k, ok := slices.BinarySearchFunc(adj[i], j, func(e edge, t int32) int { return cmp.Compare(e.to, t) })
		if !ok {
			return 0
		}
		return adj[i][k].w
	}
	move := func(i int32, to int32) {
		from := of[i]
		for _, e := range adj[i] {
			ext[int(e.to)*parts+int(from)] -= e.w
			ext[int(e.to)*parts+int(to)] += e.w
		}
		load[from] -= nodeEv[i]
		load[to] += nodeEv[i]
		members[from] = slices.DeleteFunc(members[from], func(x int32) bool { return x == i })
		members[to] = append(members[to], i)
		of[i] = to
	}
	for range commPasses {
		changed := 0
		for i := range int32(nn) {
			a := of[i]
			bestGain, bestTo, bestWith := int64(0), int32(-1), int32(-1)
			for b := range int32(parts) {
				gi := ext[int(i)*parts+int(b)] - ext[int(i)*parts+int(a)]
				if b == a || gi <= 0 {
					continue
				}
				if len(members[a]) > 1 && fits(b, load[b]+nodeEv[i]) && gi > bestGain {
					bestGain, bestTo, bestWith = gi, b, -1
				}
				for _, j := range members[b] {
					gj := ext[int(j)*parts+int(a)] - ext[int(j)*parts+int(b)]
					gain := gi + gj - 2*weight(i, j)
					if gain > bestGain && fits(a, load[a]-nodeEv[i]+nodeEv[j]) && fits(b, load[b]-nodeEv[j]+nodeEv[i]) {
						bestGain, bestTo, bestWith = gain, b, j
					}
				}
			}
			if bestTo < 0 {
				continue
			}
			move(i, bestTo)
			if bestWith >= 0 {
				move(bestWith, a)
			}
			changed++
		}
		if changed == 0 {
			break
		}
	}
	return of
}
