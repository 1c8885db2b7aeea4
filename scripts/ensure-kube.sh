#!/usr/bin/env bash
# Kubernetes programs built from the Go module proxy at pinned versions into a cache shared by
# every clone (BLACKHOLE_CACHE, ~/.cache/blackhole-lab), once per machine. Prints the directory
# holding them on its last line.
#   ensure-kube.sh [lab]    etcd, kube-apiserver, kube-proxy: the kube-proxy control plane
#                           (harness/control/kube_proxy.py). Cold: ~5-16 min on 2 cores.
#   ensure-kube.sh cluster  kubelet, kube-controller-manager, kube-scheduler: the rest of a
#                           single-node cluster in a guest (docs/kubernetes-cluster.md).
#   ensure-kube.sh kubectl  kubectl: the lab's exec on a cluster given only by its kubeconfig
#                           (harness/lab/cluster/agent.py), where this host has none.
set -euo pipefail
KUBERNETES=v1.34.2       # k8s.io/kube-proxy v0.34.4 is missing from the proxy (docs/facts/kubernetes.md)
STAGING=v0.34.2
ETCD=v3.6.4              # what Kubernetes 1.34 pins
GO_MIN=1.24
CACHE=${BLACKHOLE_CACHE:-$HOME/.cache/blackhole-lab}
SET=${1:-lab}
case $SET in
  lab) OUT=$CACHE/kube/kubernetes-$KUBERNETES-etcd-$ETCD; BINARIES="etcd kube-apiserver kube-proxy" ;;
  cluster) OUT=$CACHE/kube/cluster-kubernetes-$KUBERNETES; BINARIES="kubelet kube-controller-manager kube-scheduler" ;;
  kubectl) OUT=$CACHE/kube/kubectl-$KUBERNETES; BINARIES="kubectl" ;;
  *) echo "usage: $0 [lab|cluster|kubectl]" >&2; exit 2 ;;
esac

have_all() { for b in $BINARIES; do [ -x "$OUT/$b" ] || return 1; done; }
if have_all; then echo "$OUT"; exit 0; fi

command -v go >/dev/null || {
  echo "error: building Kubernetes $KUBERNETES needs a Go toolchain >= $GO_MIN (none found): install golang" >&2
  exit 1
}
go_version=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$GO_MIN" "$go_version" | sort -V | head -1)" != "$GO_MIN" ]; then
  echo "error: building Kubernetes $KUBERNETES needs Go >= $GO_MIN, this machine has $go_version" >&2
  exit 1
fi

# Staging modules the upstream go.mod replaces with ./staging paths: a module outside the tree
# takes each at the matching published version instead.
STAGING_MODULES="api apiextensions-apiserver apimachinery apiserver cli-runtime client-go cloud-provider
  cluster-bootstrap code-generator component-base component-helpers controller-manager cri-api
  cri-client csi-translation-lib dynamic-resource-allocation endpointslice externaljwt kms
  kube-aggregator kube-controller-manager kube-proxy kube-scheduler kubectl kubelet metrics
  mount-utils pod-security-admission sample-apiserver sample-cli-plugin sample-controller"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
started=$(date +%s)
mkdir -p "$OUT.partial"

build() {      # build <module dir> <package> <binary> <ldflags>
  local t0=$(date +%s)
  echo "kube: building $3 ..." >&2
  (cd "$1" && nice -n 19 go build -trimpath -ldflags "-s -w $4" -o "$OUT.partial/$3" "$2")
  echo "kube: $3 built in $(( $(date +%s) - t0 )) s" >&2
}

echo "kube: building $BINARIES (Kubernetes $KUBERNETES) from the Go module proxy (once per machine)" >&2
mkdir -p "$work/k8s" "$work/etcd"
{
  echo "module blackhole-lab/kube"
  echo "go $GO_MIN"
  echo "require k8s.io/kubernetes $KUBERNETES"
  for m in $STAGING_MODULES; do echo "replace k8s.io/$m => k8s.io/$m $STAGING"; done
} > "$work/k8s/go.mod"
version="-X k8s.io/component-base/version.gitVersion=$KUBERNETES -X k8s.io/client-go/pkg/version.gitVersion=$KUBERNETES"
for b in $BINARIES; do
  [ "$b" = etcd ] && continue
  (cd "$work/k8s" && go get "k8s.io/kubernetes/cmd/$b@$KUBERNETES")
  build "$work/k8s" "k8s.io/kubernetes/cmd/$b" "$b" "$version"
done
if [ "$SET" = lab ]; then
  printf 'module blackhole-lab/etcd\n\ngo %s\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$GO_MIN" "$ETCD" > "$work/etcd/go.mod"
  (cd "$work/etcd" && go get go.etcd.io/etcd/server/v3@$ETCD)
  build "$work/etcd" go.etcd.io/etcd/server/v3 etcd ""
fi

rm -rf "$OUT" && mv "$OUT.partial" "$OUT"
echo "kube: built in $(( $(date +%s) - started )) s: $OUT" >&2
echo "$OUT"
