package sqlite

import (
	"strings"
	"testing"
)

// TestRefundQueuePlan: the site's refund queue reads refund_due bookings
// through bookings_refund_due, in the index's order: it walks that
// partial index, which holds refund_due rows alone, never the table, and
// sorts nothing.
func TestRefundQueuePlan(t *testing.T) {
	s, _ := mustOpen(t)
	rows, err := s.read.Query("EXPLAIN QUERY PLAN "+refundQueueSQL, 51, 50)
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
	if len(plan) == 0 || !strings.Contains(strings.Join(plan, "\n"), "USING INDEX bookings_refund_due") {
		t.Errorf("plan %q does not use bookings_refund_due", plan)
	}
	for _, step := range plan {
		if strings.Contains(step, "TEMP B-TREE") || strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, "USING INDEX bookings_refund_due") {
			t.Errorf("plan %q walks bookings or sorts", plan)
		}
	}
}
