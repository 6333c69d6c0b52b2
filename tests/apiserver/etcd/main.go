// The etcd server, as the etcd release builds it (server/main.go there), at the version
// Kubernetes itself depends on.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
