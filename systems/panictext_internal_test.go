package systems

// panicText is the message of a recovered panic value: a string, or an error's
// Error() (a fault of setup panics with an *ecs.SetupError); "" for nil.
func panicText(r any) string {
	switch v := r.(type) {
	case string:
		return v
	case error:
		return v.Error()
	}
	return ""
}
