// Package measure computes what the report says about a set of times: the
// clock condition of every (logical) message (ClockCondition; for
// collective instances by group of sender, GroupCounter), how well a
// correction kept the lengths of local intervals (IntervalFidelity, the
// CLC paper's Table 4), and the distance to the true times when they are
// known (AccuracyOf). Package clc, the clock model, the repair pipeline and
// the HTML report call it; it computes, it does not correct.
package measure
