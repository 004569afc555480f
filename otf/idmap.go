package otf

// idIndex maps OTF2 ids (uint64) to positions (uint32) in the model. Small,
// dense id spaces use a slice; others a map.
type idIndex struct {
	dense  []uint32 // dense[id] = index+1; 0 = absent
	sparse map[uint64]uint32
}

const maxDenseID = 1 << 22

func (m *idIndex) set(id uint64, idx uint32) {
	if id < maxDenseID && m.sparse == nil {
		if id >= uint64(len(m.dense)) {
			n := 2*len(m.dense) + 16
			if uint64(n) <= id {
				n = int(id) + 16
			}
			nd := make([]uint32, n)
			copy(nd, m.dense)
			m.dense = nd
		}
		m.dense[id] = idx + 1
		return
	}
	if m.sparse == nil {
		m.sparse = make(map[uint64]uint32, len(m.dense))
		for i, v := range m.dense {
			if v != 0 {
				m.sparse[uint64(i)] = v - 1
			}
		}
		m.dense = nil
	}
	m.sparse[id] = idx
}

func (m *idIndex) get(id uint64) (uint32, bool) {
	if m.sparse == nil {
		if id < uint64(len(m.dense)) {
			if v := m.dense[id]; v != 0 {
				return v - 1, true
			}
		}
		return 0, false
	}
	v, ok := m.sparse[id]
	return v, ok
}

// each calls f for every entry.
func (m *idIndex) each(f func(id uint64, idx uint32)) {
	if m.sparse == nil {
		for i, v := range m.dense {
			if v != 0 {
				f(uint64(i), v-1)
			}
		}
		return
	}
	for k, v := range m.sparse {
		f(k, v)
	}
}

// compose returns the index reached from local ids through the mapping
// table local→global, then through global→index. Local ids the table does
// not list map as they are (OTF2's identity default).
func compose(table map[uint64]uint64, global *idIndex) *idIndex {
	out := &idIndex{}
	global.each(func(id uint64, idx uint32) {
		if _, remapped := table[id]; !remapped {
			out.set(id, idx)
		}
	})
	for l, g := range table {
		if idx, ok := global.get(g); ok {
			out.set(l, idx)
		}
	}
	return out
}
