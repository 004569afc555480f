package measure

import (
	"slices"

	"github.com/clc-tools/clc/replay"
)

// GroupCounter counts the logical messages of collective instances, and
// those that violate the clock condition, by the group of their sender
// (any grouping of the locations: nodes, ranges of nodes, locations),
// without enumerating them: it splits an instance's senders by group and
// by group and node, and counts the senders above a receive in each part
// by binary search (for a scan, in Fenwick trees filled as the scan
// advances). An instance of n members in k groups costs O(n log n + n·k).
// A GroupCounter keeps its memory from one instance to the next; it is not
// safe for concurrent use.
type GroupCounter struct {
	node, group []int32

	byGroup []sendSet // the senders of each group
	groups  []int32   // the groups with senders in the instance
	viol    []int64   // by group: the violations into one receive

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

// NewGroupCounter returns a counter for locations l on node[l] in group[l]
// (both ≥ 0).
func NewGroupCounter(node, group []int32) *GroupCounter {
	var nodes, groups int32
	for l := range node {
		nodes, groups = max(nodes, node[l]+1), max(groups, group[l]+1)
	}
	return &GroupCounter{node: node, group: group,
		byGroup: make([]sendSet, groups), viol: make([]int64, groups), cellOf: make([]int32, groups),
		bySender: make([][]int32, nodes), cellsOn: make([][2]int32, nodes)}
}

// CountInstance counts the logical messages of instance i of g in times
// with latencies lat (for a shared-memory instance, lat.Shared between any
// two members, as ClockCondition counts them): for every receiving member
// recv and every group from that sends it any, visit(recv, from, messages,
// violations) receives the number of logical messages from members in
// group from into recv's receive (every other member's send; in a scan,
// every earlier member's) and how many of them violate the clock
// condition. Their sums over the instances are ClockCondition's
// Messages and Violations.
func (c *GroupCounter) CountInstance(times [][]int64, g *replay.Graph, i uint32, lat replay.Latency, visit func(recv replay.Part, from int32, messages, violations int64)) {
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
			c.receive(times, p, !scan && p.Send != replay.NoEvent, lat, split, visit)
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

// receive counts the logical messages into p's receive from the senders
// counted so far, by group; self says that p's own send is among them
// (and is no message). A sender violates it when it is above r − inter,
// or, on p's node, above r − intra.
func (c *GroupCounter) receive(times [][]int64, p replay.Part, self bool, lat replay.Latency, split bool, visit func(replay.Part, int32, int64, int64)) {
	r := times[p.Loc][p.Recv]
	own := c.group[p.Loc]
	for _, h := range c.groups {
		c.viol[h] = c.byGroup[h].above(r - lat.Inter)
	}
	if split {
		on := c.cellsOn[c.node[p.Loc]]
		for k := on[0]; k < on[1]; k++ {
			cell := &c.cells[k]
			c.viol[c.cellGroup[k]] += cell.above(r-lat.Intra) - cell.above(r-lat.Inter)
		}
	}
	if self && times[p.Loc][p.Send] > r-lat.Intra {
		c.viol[own]--
	}
	for _, h := range c.groups {
		n := c.byGroup[h].count()
		if self && h == own {
			n--
		}
		if n > 0 {
			visit(p, h, n, c.viol[h])
		}
	}
}
