// zoo-pgx HOST[,HOST...] PORT INTERVAL_MS DURATION_S [setting=value ...]: an application on database/sql with
// pgx's stdlib driver, a pool of one: borrow, query, return. Settings are pgx connection-string
// parameters (connect_timeout, ...), and queryTimeout, the application's deadline per query as a Go
// duration: pgx has no read timeout of its own, a context with a deadline is its way. pgx passes
// every parameter it does not know itself (libpq's tcp_user_timeout among them) to the server as a
// run-time setting: it changes the server's socket, not the client's.
package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"blackhole-lab/zoo/internal/zoo"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

const driver = "pgx v5.7.6"

func main() {
	args := zoo.ParseArgs()
	params := url.Values{"sslmode": {"disable"}}
	var queryTimeout time.Duration
	for _, kv := range args.Settings {
		k, v, _ := strings.Cut(kv, "=")
		if k == "queryTimeout" {
			var err error
			if queryTimeout, err = time.ParseDuration(v); err != nil {
				fmt.Fprintln(os.Stderr, "queryTimeout:", err)
				os.Exit(2)
			}
			continue
		}
		params.Set(k, v)
	}
	// HOST may be a list, a,b: pgx tries them in order, connect_timeout bounding each
	connString := fmt.Sprintf("postgres://%s:sbtest@%s/sbtest?%s", zoo.User(), zoo.Hosts(args.Host, args.Port),
		params.Encode())
	config, err := pgx.ParseConfig(connString)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	config.LookupFunc = zoo.Lookup
	config.DialFunc = zoo.Dialer(driver)
	zoo.Run(stdlib.OpenDB(*config), args, "SELECT current_setting('lab.server_name')", queryTimeout)
}
