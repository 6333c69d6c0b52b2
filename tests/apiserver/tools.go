//go:build tools

// Keeps the commands built by scripts/apiserver-tools in this module's requirements.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
