// zoo-go HOST PORT INTERVAL_MS DURATION_S [param=value ...]: an application on database/sql with
// go-sql-driver/mysql, a pool of one: borrow, query, return. Params are the driver's DSN parameters
// (timeout, readTimeout, writeTimeout, ...). Go's runtime makes its own system calls: an
// LD_PRELOAD library never sees its sockets.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"blackhole-lab/zoo/internal/zoo"

	"github.com/go-sql-driver/mysql"
)

const driver = "go-sql-driver/mysql v1.7.1"

func main() {
	args := zoo.ParseArgs()
	params := url.Values{}
	for _, kv := range args.Settings {
		k, v, _ := strings.Cut(kv, "=")
		params.Set(k, v)
	}
	mysql.RegisterDialContext("zoo", func(ctx context.Context, addr string) (net.Conn, error) {
		return zoo.Dialer(driver)(ctx, "tcp", addr)
	})
	dsn := fmt.Sprintf("%s:sbtest@zoo(%s:%s)/?%s", zoo.User(), args.Host, args.Port, params.Encode())
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	zoo.Run(db, args, "SELECT @@hostname", 0)
}
