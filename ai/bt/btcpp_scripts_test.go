package bt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cases of BehaviorTree.CPP 4.x's gtest_sequence.cpp and gtest_parallel.cpp that need
// scripts or pre- and post-conditions (btcpp_controls_test.go has the others), on the
// XML loader with the leaves of load_script_test.go.

// SequenceWithMemoryTest.Issue_636: a failing ScriptCondition is retried on the next
// tick without re-running the children before it.
func TestBTCPPSequenceWithMemoryIssue636Scripts(t *testing.T) {
	r, l := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<SequenceWithMemory>
		<Script code=" var := 0 "/>
		<TestA/>
		<ScriptCondition code="var+=1; var >= 5"/>
		<TestB/>
		<TestC/>
	</SequenceWithMemory>`), "")
	var trace string
	for k := 0; k < 10 && (trace == "" || trace[len(trace)-1] != 'S'); k++ {
		trace += letter(run.tickOnce())
	}
	assert.Equal(t, "FFFFS", trace, "Success on the fifth tick")
	assert.Equal(t, [4]int{1, 1, 1, 0}, l.counters)
	assert.Equal(t, 5, get[int](t, run, "var"))
	assert.Zero(t, run.ctx.ScriptErrors())
}

// Parallel.Issue593: a child skipped by _skipIf is not ticked and does not stop the
// Parallel (success_count -1) from succeeding once the other child does.
func TestBTCPPParallelIssue593(t *testing.T) {
	r, l := cppRegistry(t)
	run := loadCpp(t, r, cppDoc(`<Sequence>
		<Script code="test := true"/>
		<Parallel failure_count="1" success_count="-1">
			<TestA _skipIf="test == true"/>
			<Sleep msec="100"/>
		</Parallel>
	</Sequence>`), "")
	assert.Equal(t, Running, run.tickOnce())
	assert.Equal(t, Success, run.tickWhileRunning())
	assert.Equal(t, 0, l.counters[0], "TestA skipped")
}

// Parallel.PauseWithRetry: the first branch clears "paused" after 150 ms; the second
// branch's unbounded RetryUntilSuccessful runs while "paused" holds, so it is halted
// (running _onHalted, which sets "done") on the tick paused turns false, and is then
// Skipped, which its Sequence counts as done. The Parallel succeeds when the first branch
// has slept another 150 ms. BehaviorTree.CPP measures wall-clock time with a margin;
// here the times are exact in ticks of 50 ms (a timer counts from its second tick).
func TestBTCPPParallelPauseWithRetry(t *testing.T) {
	r := NewRegistry(nil)
	run := loadCpp(t, r, cppDoc(`<Parallel>
		<Sequence>
			<Sleep msec="150"/>
			<Script code="paused := false"/>
			<Sleep msec="150"/>
		</Sequence>
		<Sequence>
			<Script code="paused := true; done := false"/>
			<RetryUntilSuccessful _while="paused" num_attempts="-1" _onHalted="done = true">
				<AlwaysFailure/>
			</RetryUntilSuccessful>
		</Sequence>
	</Parallel>`), "")
	run.ctx.DT = 0.05
	var trace string
	doneAt := 0
	for k := 1; k <= 20; k++ {
		s := run.tickOnce()
		trace += letter(s)
		if doneAt == 0 && get[bool](t, run, "done") {
			doneAt = k
		}
		if s != Running {
			break
		}
	}
	// Tick 4: the first Sleep has counted 3 × 50 ms; the retry branch is halted.
	assert.Equal(t, 4, doneAt, "done set on the tick paused turned false")
	// Tick 7: the second Sleep (entered on tick 4) has counted 150 ms.
	assert.Equal(t, "RRRRRRS", trace)
	assert.False(t, get[bool](t, run, "paused"))
	require.Zero(t, run.ctx.ScriptErrors())
}
