package save

// ErrRecovered is errRecovered, for the fuzz test.
var ErrRecovered = errRecovered

// SetStreamAbove sets the size above which a value is decoded token by token, and
// returns the setting before.
func SetStreamAbove(n int) int { old := streamAbove; streamAbove = n; return old }
