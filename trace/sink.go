package trace

// Sink receives a trace location by location with bounded memory: a
// generator or converter appends each location's events in order, in as
// many pieces as it likes, then closes the sink, which writes whatever
// depends on the whole trace (the native manifest, OTF2 definitions).
//
// Append may be called concurrently for different locations, never for the
// same one. The definitions returned by Defs may be changed (offsets added,
// say) until Close; their events are ignored.
type Sink interface {
	Defs() *Trace
	Append(loc int, ev *Events) error
	Close() error
}
