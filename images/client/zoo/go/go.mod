module blackhole-lab/zoo

go 1.19

require github.com/go-sql-driver/mysql v1.7.1
