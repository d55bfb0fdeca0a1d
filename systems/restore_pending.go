package systems

// RestorePending is the world resource by which systems/save's Load and LoadInto
// tell [Diagnose] that the world was loaded from a save whose systems' state
// has not been restored yet: States names the systems whose state the file
// holds (their Name()s, sorted). Loaded.Restore removes it once it has
// restored them; until then Diagnose reports them in [Report].Unrestored.
// Programs do not add it.
type RestorePending struct {
	States []string
}
