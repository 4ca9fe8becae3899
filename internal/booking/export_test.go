package booking

// SetTicketCodes makes s draw its ticket codes from next instead of
// NewTicketCode.
func (s *Service) SetTicketCodes(next func() string) { s.ticket = next }
