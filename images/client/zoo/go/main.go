// zoo-go HOST PORT INTERVAL_MS DURATION_S [param=value ...]: an application on database/sql with
// go-sql-driver/mysql, a pool of one: borrow, query, return. Params are the driver's DSN parameters (timeout,
// readTimeout, writeTimeout, ...). Go's runtime makes its own system calls: an LD_PRELOAD
// library never sees its sockets.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
)

const driver = "go-sql-driver/mysql v1.7.1"

var (
	mu          sync.Mutex
	connections int
)

func now() float64 { return float64(time.Now().UnixNano()) / 1e9 }

func emit(record map[string]any) {
	line, _ := json.Marshal(record)
	mu.Lock()
	defer mu.Unlock()
	os.Stdout.Write(append(line, '\n'))
}

// dial numbers each new connection and logs its local port, like the other clients.
func dial(ctx context.Context, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	connections++
	number := connections
	mu.Unlock()
	emit(map[string]any{"connected": now(), "conn": number, "local_port": conn.LocalAddr().(*net.TCPAddr).Port, "driver": driver})
	return conn, nil
}

func main() {
	host, port := os.Args[1], os.Args[2]
	intervalMs, _ := strconv.ParseFloat(os.Args[3], 64)
	durationS, _ := strconv.ParseFloat(os.Args[4], 64)
	params := url.Values{}
	for _, kv := range os.Args[5:] {
		k, v, _ := strings.Cut(kv, "=")
		params.Set(k, v)
	}
	mysql.RegisterDialContext("zoo", dial)
	user := os.Getenv("LAB_DB_USER")
	if user == "" {
		user = "sbtest"
	}
	dsn := fmt.Sprintf("%s:sbtest@zoo(%s:%s)/?%s", user, host, port, params.Encode())
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	// Which pooled connection a borrow handed out: numbered as dial saw them open.
	numbers := map[any]int{}
	deadline := now() + durationS
	for first := true; first || now() < deadline; first = false {
		t0 := now()
		var server string
		number := 0
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err == nil {
			conn.Raw(func(driverConn any) error {
				if _, seen := numbers[driverConn]; !seen {
					mu.Lock()
					numbers[driverConn] = connections
					mu.Unlock()
				}
				number = numbers[driverConn]
				return nil
			})
			err = conn.QueryRowContext(ctx, "SELECT @@hostname").Scan(&server)
			conn.Close()
		}
		if err == nil {
			emit(map[string]any{"t0": t0, "t1": now(), "ok": true, "server": server, "conn": number})
		} else {
			emit(map[string]any{"t0": t0, "t1": now(), "ok": false, "error": err.Error(), "detail": fmt.Sprintf("%T: %v", err, err), "conn": number})
		}
		if left := intervalMs/1000 - (now() - t0); left > 0 {
			time.Sleep(time.Duration(left * float64(time.Second)))
		}
	}
}
