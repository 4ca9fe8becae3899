package booking

// SetTicketCodes makes s draw its ticket codes from next instead of
// NewTicketCode.
func (s *Service) SetTicketCodes(next func() string) { s.ticket = next }

// AllBlocks lists every block BestBlock chooses among.
func AllBlocks(seats []Seat, r BestRequest, free func(Seat) bool) []Block {
	var out []Block
	for _, c := range candidates(seats, r, free) {
		out = append(out, c.block)
	}
	return out
}

// BlockBetter reports whether block a is better than block b by BestBlock's
// rule, both being among AllBlocks.
func BlockBetter(seats []Seat, r BestRequest, free func(Seat) bool, a, b Block) bool {
	var pa, pb *bestPlace
	for _, c := range candidates(seats, r, free) {
		c := c
		if c.block[0].ID == a[0].ID {
			pa = &c.at
		}
		if c.block[0].ID == b[0].ID {
			pb = &c.at
		}
	}
	return pa != nil && pb != nil && pa.better(*pb)
}
