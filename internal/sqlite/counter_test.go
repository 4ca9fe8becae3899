package sqlite

import (
	"strings"
	"testing"
)

// TestBookingsByEmailPlan: the counter's search by email reads its
// bookings through bookings_email, in the index's order: no scan of
// bookings, no sort.
func TestBookingsByEmailPlan(t *testing.T) {
	s, _ := mustOpen(t)
	rows, err := s.read.Query("EXPLAIN QUERY PLAN "+bookingsByEmailSQL, "ana@example.com", 20)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(plan) == 0 || !strings.Contains(strings.Join(plan, "\n"), "USING INDEX bookings_email") {
		t.Errorf("plan %q does not use bookings_email", plan)
	}
	for _, step := range plan {
		if walks(step) {
			t.Errorf("plan %q walks bookings or sorts", plan)
		}
	}
}
