package main

// tutorialReport is the tutorial-style run of the guards (package
// cmd/bench/tutorial) beside archai's, in -tutorial's reports.
type tutorialReport struct {
	MsMedian          float64 `json:"ms_per_frame_median"`
	MsP95             float64 `json:"ms_per_frame_p95"`
	MsMean            float64 `json:"ms_per_frame_mean"`
	AllocsPerFrame    float64 `json:"allocs_per_frame"`
	ThoughtPerFrame   float64 `json:"thought_per_frame"`
	PerceivedPerFrame float64 `json:"perceived_per_frame"`
	SearchesPerFrame  float64 `json:"searches_per_frame"`
	Strikes           int     `json:"strikes"`
}

func addTutorial(rep *report, cfg crowdConfig) error { return nil }
