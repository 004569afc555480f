package measure

import (
	"slices"

	"github.com/clc-tools/clc/replay"
)

// GroupCounter counts the logical messages of collective instances, and
// those that violate the clock condition, by pair of groups of locations
// (any grouping: nodes, ranges of nodes, locations), without enumerating
// them: it splits an instance's senders by group and by group and node,
// and counts the senders above a receive in each part by binary search
// (for a scan, in Fenwick trees filled as the scan advances). An instance
// of n members in k groups costs O(n log n + n·k). A GroupCounter keeps its
// memory from one instance to the next; it is not safe for concurrent use.
type GroupCounter struct {
	node, group []int32
	k           int // the number of groups

	byGroup []sendSet // the senders of each group
	groups  []int32   // the groups with senders in the instance

	// The senders by group and node, the cells, where the latencies
	// differ: those on node m are cells[cellsOn[m][0]:cellsOn[m][1]].
	cells     []sendSet
	cellGroup []int32
	ncells    int
	bySender  [][]int32 // by node: its senders' indices in the instance's parts
	nodes     []int32   // the nodes with senders in the instance
	cellsOn   [][2]int32
	cellOf    []int32 // by group: its cell on the node being split, if it is one of that node's
	partCell  []int32 // by part: its sender's cell
}

// sendSet is the send times of some members of an instance: all of them,
// sorted, or for a scan those inserted so far, in a Fenwick tree over all.
type sendSet struct {
	vals   []int64
	sorted sortedVals
	tree   fenwick
	scan   bool
}

// reset makes s count its vals (growing from none when scan).
func (s *sendSet) reset(scan bool) {
	s.scan = scan
	if scan {
		s.tree.reset(s.vals)
	} else {
		s.sorted.reset(s.vals)
	}
}

// count returns the number of values counted.
func (s *sendSet) count() int64 {
	if s.scan {
		return s.tree.count
	}
	return int64(len(s.sorted.v))
}

// above returns the number of values counted that are > x.
func (s *sendSet) above(x int64) int64 {
	if s.scan {
		if mx, ok := s.tree.maxInserted(); !ok || mx <= x {
			return 0
		}
		n, _ := s.tree.above(x)
		return n
	}
	if n := len(s.sorted.v); n == 0 || s.sorted.v[n-1] <= x {
		return 0 // most receives: no search
	}
	n, _ := s.sorted.above(x)
	return n
}

// NewGroupCounter returns a counter for k groups of locations: location
// l is on node[l] ≥ 0 and in group[l], 0 ≤ group[l] < k.
func NewGroupCounter(node, group []int32, k int) *GroupCounter {
	var nodes int32
	for _, m := range node {
		nodes = max(nodes, m+1)
	}
	return &GroupCounter{node: node, group: group, k: k,
		byGroup: make([]sendSet, k), cellOf: make([]int32, k),
		bySender: make([][]int32, nodes), cellsOn: make([][2]int32, nodes)}
}

// CountInstance adds the logical messages of instance i of g, by pair of
// groups, to messages[from*k+to], from the sender's group to the
// receiver's (k groups): every other member's send into a member's receive
// (in a scan, every earlier member's). It adds those that violate the
// clock condition in times with latencies lat (for a shared-memory
// instance, lat.Shared between any two members, as ClockCondition counts
// them) to violations, and calls violated(recv, n), if not nil, for every
// receive into which n > 0 of them violate. Summed over the MPI instances,
// the counts are ClockCondition's collective Messages and Violations.
func (c *GroupCounter) CountInstance(times [][]int64, g *replay.Graph, i uint32, lat replay.Latency, messages, violations []int64, violated func(recv replay.Part, n int64)) {
	in := &g.Instances[i]
	parts := g.InstanceParts(i)
	lat = lat.ForSync(in.Kind)
	scan := in.Class == replay.ClassScan
	split := lat.Intra != lat.Inter
	c.fill(times, parts, scan, split)
	if len(c.groups) == 0 {
		return
	}
	for k, p := range parts {
		if p.Recv != replay.NoEvent {
			n := c.receive(times, p, !scan && p.Send != replay.NoEvent, lat, split, messages, violations)
			if n > 0 && violated != nil {
				violated(p, n)
			}
		}
		if scan && p.Send != replay.NoEvent {
			v := times[p.Loc][p.Send]
			c.byGroup[c.group[p.Loc]].tree.insert(v)
			if split {
				c.cells[c.partCell[k]].tree.insert(v)
			}
		}
	}
}

// fill collects the senders of parts by group and, when split, by group
// and node; for a scan they are counted as they are inserted.
func (c *GroupCounter) fill(times [][]int64, parts []replay.Part, scan, split bool) {
	for _, h := range c.groups {
		c.byGroup[h].vals = c.byGroup[h].vals[:0]
	}
	for _, m := range c.nodes {
		c.bySender[m] = c.bySender[m][:0]
		c.cellsOn[m] = [2]int32{}
	}
	c.groups, c.nodes = c.groups[:0], c.nodes[:0]
	for k, p := range parts {
		if p.Send == replay.NoEvent {
			continue
		}
		h, m := c.group[p.Loc], c.node[p.Loc]
		s := &c.byGroup[h]
		if len(s.vals) == 0 {
			c.groups = append(c.groups, h)
		}
		s.vals = append(s.vals, times[p.Loc][p.Send])
		if split {
			if len(c.bySender[m]) == 0 {
				c.nodes = append(c.nodes, m)
			}
			c.bySender[m] = append(c.bySender[m], int32(k))
		}
	}
	for _, h := range c.groups {
		c.byGroup[h].reset(scan)
	}
	if split {
		c.fillCells(times, parts, scan)
	}
}

// fillCells splits the senders of each node by group.
func (c *GroupCounter) fillCells(times [][]int64, parts []replay.Part, scan bool) {
	c.partCell = slices.Grow(c.partCell[:0], len(parts))[:len(parts)]
	c.ncells = 0
	for _, m := range c.nodes {
		first := int32(c.ncells)
		for _, k := range c.bySender[m] {
			p := parts[k]
			h := c.group[p.Loc]
			cell := c.cellOf[h]
			if cell < first || int(cell) >= c.ncells || c.cellGroup[cell] != h {
				cell = c.newCell(h)
				c.cellOf[h] = cell
			}
			c.cells[cell].vals = append(c.cells[cell].vals, times[p.Loc][p.Send])
			c.partCell[k] = cell
		}
		c.cellsOn[m] = [2]int32{first, int32(c.ncells)}
	}
	for k := range c.ncells {
		c.cells[k].reset(scan)
	}
}

// newCell returns the index of a new, empty cell of group h.
func (c *GroupCounter) newCell(h int32) int32 {
	if c.ncells == len(c.cells) {
		c.cells = append(c.cells, sendSet{})
		c.cellGroup = append(c.cellGroup, 0)
	}
	k := c.ncells
	c.ncells++
	c.cells[k].vals = c.cells[k].vals[:0]
	c.cellGroup[k] = h
	return int32(k)
}

// receive adds the logical messages into p's receive from the senders
// counted so far, and their violations, to the matrices; self says that
// p's own send is among them (and is no message). A sender violates it
// when it is above r − inter, or, on p's node, above r − intra. It returns
// the number of violations.
func (c *GroupCounter) receive(times [][]int64, p replay.Part, self bool, lat replay.Latency, split bool, messages, violations []int64) int64 {
	r := times[p.Loc][p.Recv]
	to := int(c.group[p.Loc])
	var total int64
	for _, h := range c.groups {
		s := &c.byGroup[h]
		k := int(h)*c.k + to
		v := s.above(r - lat.Inter)
		messages[k] += s.count()
		violations[k] += v
		total += v
	}
	if split {
		on := c.cellsOn[c.node[p.Loc]]
		for k := on[0]; k < on[1]; k++ {
			cell := &c.cells[k]
			v := cell.above(r-lat.Intra) - cell.above(r-lat.Inter)
			violations[int(c.cellGroup[k])*c.k+to] += v
			total += v
		}
	}
	if self {
		k := to*c.k + to
		messages[k]--
		if times[p.Loc][p.Send] > r-lat.Intra {
			violations[k]--
			total--
		}
	}
	return total
}
