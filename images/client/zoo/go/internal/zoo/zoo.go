// Package zoo is the loop every Go client of the zoo runs: one database/sql pool of one
// connection, borrow, ask which server answered, return, one JSON line per operation.
package zoo

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Args are the zoo's command line: HOST PORT INTERVAL_MS DURATION_S [SETTING=VALUE ...].
type Args struct {
	Host, Port string
	IntervalS  float64
	DurationS  float64
	Settings   []string
}

func ParseArgs() Args {
	intervalMs, _ := strconv.ParseFloat(os.Args[3], 64)
	durationS, _ := strconv.ParseFloat(os.Args[4], 64)
	return Args{Host: os.Args[1], Port: os.Args[2], IntervalS: intervalMs / 1000, DurationS: durationS,
		Settings: os.Args[5:]}
}

func User() string {
	if user := os.Getenv("LAB_DB_USER"); user != "" {
		return user
	}
	return "sbtest"
}

var (
	mu          sync.Mutex
	connections int
)

func Now() float64 { return float64(time.Now().UnixNano()) / 1e9 }

func Emit(record map[string]any) {
	line, _ := json.Marshal(record)
	mu.Lock()
	defer mu.Unlock()
	os.Stdout.Write(append(line, '\n'))
}

// Hosts joins a HOST argument's names (a,b: a list the driver tries in order) each with the port.
func Hosts(hosts, port string) string {
	joined := []string{}
	for _, host := range strings.Split(hosts, ",") {
		joined = append(joined, net.JoinHostPort(host, port))
	}
	return strings.Join(joined, ",")
}

var hostOf = map[string]string{} // looked-up address -> the name it was looked up by

// Lookup is net's lookup, remembering which name each address came from, for Dialer's record.
func Lookup(ctx context.Context, host string) ([]string, error) {
	addrs, err := net.DefaultResolver.LookupHost(ctx, host)
	mu.Lock()
	for _, addr := range addrs {
		hostOf[addr] = host
	}
	mu.Unlock()
	return addrs, err
}

// Dialer numbers each new connection and logs its local port, like the other clients, and before
// each connect the name and the address it goes to (the address a Lookup gave that name).
func Dialer(driver string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if ip, _, err := net.SplitHostPort(addr); err == nil && net.ParseIP(ip) != nil { // a name: net looks it up
			mu.Lock()
			host := hostOf[ip]
			mu.Unlock()
			if host == "" {
				host = ip
			}
			Emit(map[string]any{"connecting": Now(), "host": host, "address": ip})
		}
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		connections++
		number := connections
		mu.Unlock()
		Emit(map[string]any{"connected": Now(), "conn": number, "local_port": conn.LocalAddr().(*net.TCPAddr).Port,
			"driver": driver})
		return conn, nil
	}
}

// Run borrows the pool's one connection every interval and asks `query` (the server's name) on it,
// each under `queryTimeout` when it is not zero (the application's own deadline).
func Run(db *sql.DB, args Args, query string, queryTimeout time.Duration) {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	// Which pooled connection a borrow handed out: numbered as the dialer saw them open.
	numbers := map[any]int{}
	deadline := Now() + args.DurationS
	for first := true; first || Now() < deadline; first = false {
		t0 := Now()
		var server string
		number := 0
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if queryTimeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, queryTimeout)
		}
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
			err = conn.QueryRowContext(ctx, query).Scan(&server)
			conn.Close()
		}
		cancel()
		if err == nil {
			Emit(map[string]any{"t0": t0, "t1": Now(), "ok": true, "server": server, "conn": number})
		} else {
			Emit(map[string]any{"t0": t0, "t1": Now(), "ok": false, "error": err.Error(),
				"detail": fmt.Sprintf("%T: %v", err, err), "conn": number})
		}
		if left := args.IntervalS - (Now() - t0); left > 0 {
			time.Sleep(time.Duration(left * float64(time.Second)))
		}
	}
}
