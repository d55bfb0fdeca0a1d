package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profileFlags are -cpuprofile and -memprofile, as go test has them: a CPU profile of
// the simulated frames of one run (from where its frame timing starts, after the
// scenario is set up, to where it stops after the last frame) and a heap profile
// written after the last frame.
type profileFlags struct{ cpu, mem *string }

func addProfileFlags(fs *flag.FlagSet) profileFlags {
	return profileFlags{
		cpu: fs.String("cpuprofile", "", "write a CPU profile of the run's simulated frames (not the set-up) to `FILE`, for go tool pprof (default none: no profile)"),
		mem: fs.String("memprofile", "", "write a heap profile, taken after the run's last frame, to `FILE`, for go tool pprof (default none: no profile)"),
	}
}

// profiles are the files of -cpuprofile and -memprofile of one run, created before it
// (a file that cannot be created is a usage error before anything runs). A nil
// *profiles profiles nothing.
//
// start and stop bracket the simulated frames; close, deferred by run, ends the
// profiles on every exit path (an error exit before or during the frames too): it
// stops a CPU profile still running, writes a profile not written yet (a CPU profile
// of no frames holds no samples, but is still a profile pprof reads), and closes the
// files.
type profiles struct {
	cpuName, memName string
	cpu, mem         *os.File
	cpuOn, cpuDone   bool
	memDone          bool
}

// openProfiles creates the files named by -cpuprofile and -memprofile, or returns
// nil if neither is given. The error names the flag and the file.
func openProfiles(pf profileFlags) (*profiles, error) {
	if *pf.cpu == "" && *pf.mem == "" {
		return nil, nil
	}
	p := &profiles{cpuName: *pf.cpu, memName: *pf.mem}
	var err error
	if p.cpuName != "" {
		if p.cpu, err = os.Create(p.cpuName); err != nil {
			return nil, fmt.Errorf("-cpuprofile %s: cannot create the file: %w", p.cpuName, pathErr(err))
		}
	}
	if p.memName != "" {
		if p.mem, err = os.Create(p.memName); err != nil {
			if p.cpu != nil {
				p.cpu.Close()
			}
			return nil, fmt.Errorf("-memprofile %s: cannot create the file: %w", p.memName, pathErr(err))
		}
	}
	return p, nil
}

// pathErr returns the cause of a *os.PathError (the path is said before it).
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// start starts the CPU profile; call it where the frames' timing starts.
func (p *profiles) start() error {
	if p == nil || p.cpu == nil || p.cpuOn || p.cpuDone {
		return nil
	}
	if err := pprof.StartCPUProfile(p.cpu); err != nil {
		p.cpuDone = true
		return fmt.Errorf("-cpuprofile %s: %w", p.cpuName, err)
	}
	p.cpuOn = true
	return nil
}

// stop stops the CPU profile and writes the heap profile; call it where the frames'
// timing stops, after the last frame.
func (p *profiles) stop() error {
	if p == nil {
		return nil
	}
	if p.cpuOn {
		pprof.StopCPUProfile() // flushes the profile to p.cpu
		p.cpuOn, p.cpuDone = false, true
	}
	if p.mem != nil && !p.memDone {
		p.memDone = true
		runtime.GC() // the heap profile's figures are those of the last collection, as go test's
		if err := pprof.Lookup("heap").WriteTo(p.mem, 0); err != nil {
			return fmt.Errorf("-memprofile %s: %w", p.memName, err)
		}
	}
	return nil
}

// close ends the profiles on any exit path and closes their files; its error (a file
// that could not be written) makes the exit status 1.
func (p *profiles) close() error {
	if p == nil {
		return nil
	}
	if p.cpu != nil && !p.cpuOn && !p.cpuDone {
		_ = p.start() // no frames ran: a profile with no samples
	}
	errs := []error{p.stop()}
	for _, f := range []struct {
		flag, name string
		file       *os.File
	}{{"cpuprofile", p.cpuName, p.cpu}, {"memprofile", p.memName, p.mem}} {
		if f.file == nil {
			continue
		}
		if err := f.file.Close(); err != nil {
			errs = append(errs, fmt.Errorf("-%s %s: %w", f.flag, f.name, pathErr(err)))
		}
	}
	p.cpu, p.mem = nil, nil
	return errors.Join(errs...)
}
