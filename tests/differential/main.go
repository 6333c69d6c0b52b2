// Command differential answers questions about Kubernetes semantics with Kubernetes' own Go
// libraries, for ra2's differential test (tests/tests/differential.rs).
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on stdout, in order.
//
//	{"op":"quantity","text":"1.5Gi"}      resource.ParseQuantity, and Quantity.UnmarshalJSON of json.Marshal(text)
//	{"op":"yaml","text":"key: 010"}       sigs.k8s.io/yaml.YAMLToJSON (the conversion kubectl and the API server use)
//	{"op":"podcpu","text":"<pod yaml>"}   the cpu limit of the first container after decoding the pod like the API server
//	{"op":"qos","text":"<pod yaml>"}      kubectl's ComputePodQOS on the pod after request-from-limit defaulting
//	{"op":"qos","pod":{...}}              the same for a pod given as JSON
//	{"op":"qos","text":"<yaml>","pointer":"/spec/template/spec"}   the same for the pod spec of a workload
//	{"op":"qos","text":"<pod yaml>","podLevel":true}   the same with the PodLevelResources feature
//	                                      (Kubernetes 1.34): spec.resources is kept and defaulted;
//	                                      without podLevel it is dropped, as the API server drops a
//	                                      field of a disabled feature
//	{"op":"runtimeconfig","flags":[...],"registry":[...],"defaultResources":[...],"probes":[...]}
//	                                      kube-apiserver's --runtime-config occurrences, checked and
//	                                      merged by k8s.io/apiserver (see runtimeConfig in flags.go)
//	{"op":"featuregates","flags":[...],"known":{"Name":"alpha",...}}
//	                                      --feature-gates occurrences read by component-base's
//	                                      compatibility registry and feature gate (see featureGates)
//
// Everything that decides an answer is library code (k8s.io/apimachinery, k8s.io/api, k8s.io/kubectl,
// sigs.k8s.io/yaml, sigs.k8s.io/json, k8s.io/component-helpers, k8s.io/apiserver,
// k8s.io/component-base). The only hand-written Kubernetes logic is the API server's request
// defaulting in defaultRequests and defaultPodRequests (see there), the checks of
// APIEnablementOptions.Validate (see runtimeConfig: its package would bring in the whole generic
// API server) and the CPU manager's one-line
// integer test `Value()*1000 == MilliValue()`, which lives in k8s.io/kubernetes (not importable as
// a library) and is reproduced verbatim on top of the library's Value and MilliValue.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/klog/v2"
	"k8s.io/kubectl/pkg/util/qos"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

type request struct {
	Op   string          `json:"op"`
	Text string          `json:"text"`
	Pod  json.RawMessage `json:"pod,omitempty"`
	// Pointer, for "qos" on a YAML document of any workload kind, is the JSON pointer of its pod
	// spec (e.g. /spec/template/spec); the spec is then decoded as the spec of a Pod.
	Pointer string `json:"pointer,omitempty"`
	// PodLevel, for "qos": the PodLevelResources feature is on (Kubernetes 1.34 and later).
	PodLevel bool `json:"podLevel,omitempty"`
	// Flags, for "runtimeconfig" and "featuregates": the value of each occurrence of the flag.
	Flags []string `json:"flags,omitempty"`
	// Registry, for "runtimeconfig": the registered group versions ("group/version", "v1" for
	// the core group).
	Registry []string `json:"registry,omitempty"`
	// DefaultResources and Probes, for "runtimeconfig": resources ("group/version/resource")
	// enabled in the default configuration, and resources to ask ResourceEnabled about.
	DefaultResources []string `json:"defaultResources,omitempty"`
	Probes           []string `json:"probes,omitempty"`
	// Known, for "featuregates": the gates the component knows, name to stage (see featureGates).
	Known map[string]string `json:"known,omitempty"`
}

// parsed describes one parse result.
type parsed struct {
	OK bool `json:"ok"`
	// ErrKind is "suffix" (resource.ErrSuffix), "format" (ErrFormatWrong), "numeric" (ErrNumeric)
	// or "other".
	ErrKind string `json:"errKind,omitempty"`
	Err     string `json:"err,omitempty"`
	// Nanos is the exact value in units of 1e-9 as a decimal integer, read from the library's
	// inf.Dec (AsDec); "inexact:<dec>" if the value is not a whole number of nanos.
	Nanos  string `json:"nanos,omitempty"`
	Format string `json:"format,omitempty"`
	// Value and Milli are the library's Value() and MilliValue() (int64, may have overflowed).
	Value int64 `json:"value"`
	Milli int64 `json:"milli"`
	// AbsValue and AbsMilli are Value() and MilliValue() of the negated quantity (Neg), for
	// negative quantities: the library's rounding of the magnitude.
	AbsValue int64 `json:"absValue"`
	AbsMilli int64 `json:"absMilli"`
	// IntegerCPU is the CPU manager's test: Value()*1000 == MilliValue().
	IntegerCPU bool `json:"integerCPU"`
}

type quantityAnswer struct {
	Parse parsed `json:"parse"`
	// JSON is Quantity.UnmarshalJSON applied to json.Marshal(text): what the API server does with
	// a quantity written as a string.
	JSON parsed `json:"json"`
}

type yamlAnswer struct {
	OK   bool   `json:"ok"`
	JSON string `json:"json,omitempty"`
	Err  string `json:"err,omitempty"`
}

type qosAnswer struct {
	OK    bool   `json:"ok"`
	Err   string `json:"err,omitempty"`
	Class string `json:"class,omitempty"`
}

func describe(q resource.Quantity, err error) parsed {
	if err != nil {
		kind := "other"
		switch {
		case errors.Is(err, resource.ErrSuffix):
			kind = "suffix"
		case errors.Is(err, resource.ErrFormatWrong):
			kind = "format"
		case errors.Is(err, resource.ErrNumeric):
			kind = "numeric"
		}
		return parsed{ErrKind: kind, Err: err.Error()}
	}
	p := parsed{OK: true, Format: string(q.Format)}
	value, milli := q.Value(), q.MilliValue()
	p.Value, p.Milli = value, milli
	p.IntegerCPU = value*1000 == milli
	if q.Sign() < 0 {
		neg := q.DeepCopy()
		neg.Neg()
		p.AbsValue, p.AbsMilli = neg.Value(), neg.MilliValue()
	}
	p.Nanos = nanos(q)
	return p
}

// nanos reads the exact value from the library's decimal representation.
func nanos(q resource.Quantity) string {
	c := q.DeepCopy()
	dec := c.AsDec()
	unscaled := new(big.Int).Set(dec.UnscaledBig())
	shift := 9 - int64(dec.Scale())
	if shift >= 0 {
		return unscaled.Mul(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(shift), nil)).String()
	}
	divisor := new(big.Int).Exp(big.NewInt(10), big.NewInt(-shift), nil)
	quotient, remainder := new(big.Int).QuoRem(unscaled, divisor, new(big.Int))
	if remainder.Sign() != 0 {
		return "inexact:" + dec.String()
	}
	return quotient.String()
}

func quantity(text string) quantityAnswer {
	var answer quantityAnswer
	answer.Parse = describe(resource.ParseQuantity(text))
	encoded, err := json.Marshal(text)
	if err != nil {
		answer.JSON = parsed{ErrKind: "other", Err: err.Error()}
		return answer
	}
	var q resource.Quantity
	if err := kjson.UnmarshalCaseSensitivePreserveInts(encoded, &q); err != nil {
		answer.JSON = describe(q, unwrapQuantityError(err))
	} else {
		answer.JSON = describe(q, nil)
	}
	return answer
}

// unwrapQuantityError keeps the quantity error kind when the JSON decoder wraps it.
func unwrapQuantityError(err error) error {
	for _, known := range []error{resource.ErrSuffix, resource.ErrFormatWrong, resource.ErrNumeric} {
		if errors.Is(err, known) {
			return known
		}
	}
	return err
}

func yamlToJSON(text string) yamlAnswer {
	out, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		return yamlAnswer{Err: err.Error()}
	}
	return yamlAnswer{OK: true, JSON: string(out)}
}

// decodePod decodes a pod the way the API server does: YAML to JSON with sigs.k8s.io/yaml, then
// the case-sensitive JSON decoder of sigs.k8s.io/json.
func decodePod(req request) (*v1.Pod, error) {
	data := []byte(req.Pod)
	if req.Text != "" {
		var err error
		if data, err = yaml.YAMLToJSON([]byte(req.Text)); err != nil {
			return nil, err
		}
	}
	if req.Pointer != "" {
		spec, err := lookup(data, req.Pointer)
		if err != nil {
			return nil, err
		}
		data = []byte(`{"spec":` + string(spec) + `}`)
	}
	var pod v1.Pod
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &pod); err != nil {
		return nil, err
	}
	return &pod, nil
}

// lookup returns the JSON found at a JSON pointer (RFC 6901; object keys only).
func lookup(data []byte, pointer string) ([]byte, error) {
	// UseNumber keeps numbers as written, so a quantity like 0.1 or 1e+21 is re-encoded unchanged.
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.UseNumber()
	var node any
	if err := decoder.Decode(&node); err != nil {
		return nil, err
	}
	for _, token := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		token = strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
		object, ok := node.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("pointer %q: %q is not in an object", pointer, token)
		}
		if node, ok = object[token]; !ok {
			return nil, fmt.Errorf("pointer %q: no %q", pointer, token)
		}
	}
	return json.Marshal(node)
}

// defaultRequests applies the API server's request-from-limit defaulting (SetDefaults_Pod in
// k8s.io/kubernetes/pkg/apis/core/v1/defaults.go): for every regular and init container, each
// key present in limits but missing from requests gets the limit's value. It is written by hand
// because that package is part of k8s.io/kubernetes, which cannot be imported as a library, and
// because kubectl's ComputePodQOS expects a pod that has already been defaulted (it reads a
// created Pod). Pod-level resources (spec.resources) are defaulted afterwards by
// defaultPodRequests. The QoS algorithm itself is the library's (qos.ComputePodQOS).
func defaultRequests(pod *v1.Pod) {
	for _, containers := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range containers {
			resources := &containers[i].Resources
			if resources.Limits == nil {
				continue
			}
			if resources.Requests == nil {
				resources.Requests = v1.ResourceList{}
			}
			for key, value := range resources.Limits {
				if _, exists := resources.Requests[key]; !exists {
					resources.Requests[key] = value.DeepCopy()
				}
			}
		}
	}
}

// defaultPodRequests is the API server's pod-level request defaulting of Kubernetes 1.34
// (defaultPodRequests in k8s.io/kubernetes/pkg/apis/core/v1/defaults.go, KEP-2837), copied
// statement for statement over the library's AggregateContainerRequests and
// IsSupportedPodLevelResource: when the pod sets limits, a request it omits is the containers'
// aggregated request for an overcommittable resource that some container requests, else the
// pod's limit. Hugepage limit defaulting (defaultHugePagePodLimits) is left out: hugepages never
// decide QoS.
func defaultPodRequests(pod *v1.Pod) {
	if pod.Spec.Resources == nil || len(pod.Spec.Resources.Limits) == 0 {
		return
	}
	podReqs := pod.Spec.Resources.Requests
	if podReqs == nil {
		podReqs = make(v1.ResourceList)
	}
	aggrCtrReqs := resourcehelper.AggregateContainerRequests(pod, resourcehelper.PodResourcesOptions{})
	for key, aggrCtrReq := range aggrCtrReqs {
		// IsOvercommitAllowed: of the supported resources (cpu, memory, hugepages-*), all but hugepages.
		overcommit := !strings.HasPrefix(string(key), v1.ResourceHugePagesPrefix)
		if _, exists := podReqs[key]; !exists && resourcehelper.IsSupportedPodLevelResource(key) && overcommit {
			podReqs[key] = aggrCtrReq.DeepCopy()
		}
	}
	for key, podLim := range pod.Spec.Resources.Limits {
		if _, exists := podReqs[key]; !exists && resourcehelper.IsSupportedPodLevelResource(key) {
			podReqs[key] = podLim.DeepCopy()
		}
	}
	if len(podReqs) > 0 {
		pod.Spec.Resources.Requests = podReqs
	}
}

func podQOS(req request) qosAnswer {
	pod, err := decodePod(req)
	if err != nil {
		return qosAnswer{Err: err.Error()}
	}
	if !req.PodLevel {
		pod.Spec.Resources = nil
	}
	defaultRequests(pod)
	defaultPodRequests(pod)
	return qosAnswer{OK: true, Class: string(qos.ComputePodQOS(pod))}
}

func podCPU(req request) parsed {
	pod, err := decodePod(req)
	if err != nil {
		return describe(resource.Quantity{}, unwrapQuantityError(err))
	}
	if len(pod.Spec.Containers) == 0 {
		return parsed{ErrKind: "other", Err: "no container"}
	}
	q, ok := pod.Spec.Containers[0].Resources.Limits[v1.ResourceCPU]
	if !ok {
		return parsed{ErrKind: "other", Err: "no cpu limit"}
	}
	return describe(q, nil)
}

func answer(line []byte) any {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return map[string]string{"protocolError": err.Error()}
	}
	switch req.Op {
	case "quantity":
		return quantity(req.Text)
	case "yaml":
		return yamlToJSON(req.Text)
	case "podcpu":
		return podCPU(req)
	case "qos":
		return podQOS(req)
	case "runtimeconfig":
		return runtimeConfig(req)
	case "featuregates":
		return featureGates(req)
	default:
		return map[string]string{"protocolError": fmt.Sprintf("unknown op %q", req.Op)}
	}
}

func main() {
	// The feature gate logs every GA or deprecated gate it is asked to set.
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			if err := encoder.Encode(answer(line)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if err != nil {
			return
		}
	}
}
