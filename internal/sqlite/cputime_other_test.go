//go:build !unix

package sqlite

import "time"

// cpuTime is unknown here.
func cpuTime() time.Duration { return 0 }
