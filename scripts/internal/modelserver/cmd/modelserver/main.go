// Command modelserver runs the scripted model server for hand runs of the
// real agents: each scenario in -scenarios is served at BASE/s/NAME.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"lanes/scripts/internal/modelserver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	file := flag.String("scenarios", "", "JSON array of scenarios {name, turns}; each is served at BASE/s/NAME")
	flag.Parse()
	srv := modelserver.New()
	if *file != "" {
		scs, err := modelserver.LoadFile(*file)
		if err != nil {
			fmt.Fprintln(os.Stderr, "modelserver:", err)
			os.Exit(2)
		}
		for _, sc := range scs {
			if err := srv.Add(sc); err != nil {
				fmt.Fprintln(os.Stderr, "modelserver:", err)
				os.Exit(2)
			}
		}
	}
	base, err := srv.Listen(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "modelserver:", err)
		os.Exit(1)
	}
	fmt.Println(base)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	srv.Close() //nolint:errcheck // exiting anyway
}
