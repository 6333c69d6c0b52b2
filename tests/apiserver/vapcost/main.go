// vap-cost prints the CEL cost of ValidatingAdmissionPolicies (`ra2 export vap`) as
// kube-apiserver reckons it, with the apiserver's own code of the pinned release
// (k8s.io/apiserver in ../go.mod, the same module graph as the test kube-apiserver):
//
//   - static: cel-go's cost estimator with Kubernetes' library costs (library.CostEstimator),
//     on the expressions compiled in the environment kube-apiserver compiles policies in
//     (object Dyn, the composited `variables`, strict cost). kube-apiserver 1.33 does not
//     reject a policy by its estimate (CustomResourceDefinitions' rules are; policies are
//     limited at run time), and with `object` untyped the estimator cannot bound a list or
//     string size: `-size N` bounds every size it cannot derive by N (elements or bytes).
//   - runtime: the cost kube-apiserver charges when it evaluates each variable, validation and
//     messageExpression on an object (1.33 evaluates every messageExpression on every request,
//     failing or not, in a second pass that evaluates the variables again), against the per-expression
//     limit (PerCallLimit, 1,000,000) and the per-policy budget (RuntimeCELCostBudget,
//     10,000,000, shared by the variables, validations and messages of one evaluation;
//     matchConditions have their own, RuntimeCELCostBudgetMatchConditions). The policy's
//     total is also taken from the apiserver's own evaluator (ForInput: budget - remaining).
//
// Usage: vap-cost [-size N] [-max-percent P] POLICIES.yaml [OBJECT.yaml ...]
// Without objects it judges three built-in ones: a typical Pod, a Pod of 100 containers with
// 100 environment variables each, and a network-intensive Deployment of 150 huge-page
// containers. With -max-percent it exits 1 when a runtime cost exceeds P% of its limit.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types/ref"

	admissionv1 "k8s.io/api/admission/v1"
	admv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/version"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
	"sigs.k8s.io/yaml"
)

type expr struct {
	text    string
	returns []*cel.Type
}

func (e expr) GetExpression() string         { return e.text }
func (e expr) ReturnTypes() []*cel.Type      { return e.returns }
func (e expr) GetName() string               { return "" }
func anyExpr(s string) expr                  { return expr{s, []*cel.Type{cel.AnyType}} }
func boolExpr(s string) expr                 { return expr{s, []*cel.Type{cel.BoolType}} }
func strExpr(s string) expr                  { return expr{s, []*cel.Type{cel.StringType}} }
func (v namedExpr) GetName() string          { return v.name }
func (v namedExpr) GetExpression() string    { return v.text }
func (v namedExpr) ReturnTypes() []*cel.Type { return []*cel.Type{cel.AnyType} }

type namedExpr struct{ name, text string }

// boundSizes gives the estimator a size for every node whose size it cannot derive.
type boundSizes struct{ n uint64 }

func (b boundSizes) EstimateSize(checker.AstNode) *checker.SizeEstimate {
	if b.n == 0 {
		return nil
	}
	return &checker.SizeEstimate{Min: 0, Max: b.n}
}

func (b boundSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// policyEnv is the environment kube-apiserver compiles a policy's expressions in
// (validating.compilePolicy, plugincel.createEnvForOpts), with the policy's variables stored.
type policyEnv struct {
	compiler *plugincel.CompositedCompiler
	env      *cel.Env
	vars     []namedExpr
}

var opts = plugincel.OptionalVariableDeclarations{HasParams: false, HasAuthorizer: true, StrictCost: true}

func newPolicyEnv(p *admv1.ValidatingAdmissionPolicy) (*policyEnv, error) {
	tmpl, err := plugincel.NewCompositionEnv(plugincel.VariablesTypeName, environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion(), true))
	if err != nil {
		return nil, err
	}
	c := plugincel.NewCompositedCompilerFromTemplate(tmpl)
	var vars []namedExpr
	for _, v := range p.Spec.Variables {
		nv := namedExpr{v.Name, v.Expression}
		if r := c.CompileAndStoreVariable(nv, opts, environment.StoredExpressions); r.Error != nil {
			return nil, fmt.Errorf("variable %s: %v", v.Name, r.Error)
		}
		vars = append(vars, nv)
	}
	requestType := plugincel.BuildRequestType()
	namespaceType := plugincel.BuildNamespaceType()
	set, err := c.CompositionEnv.EnvSet.Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions: []cel.EnvOption{
			cel.Variable(plugincel.ObjectVarName, cel.DynType),
			cel.Variable(plugincel.OldObjectVarName, cel.DynType),
			cel.Variable(plugincel.NamespaceVarName, namespaceType.CelType()),
			cel.Variable(plugincel.RequestVarName, requestType.CelType()),
			cel.Variable(plugincel.AuthorizerVarName, library.AuthorizerType),
			cel.Variable(plugincel.RequestResourceAuthorizerVarName, library.ResourceCheckType),
		},
		DeclTypes: []*apiservercelDeclType{namespaceType, requestType},
	})
	if err != nil {
		return nil, err
	}
	if set, err = set.Extend(environment.StrictCostOpt); err != nil {
		return nil, err
	}
	env, err := set.Env(environment.StoredExpressions)
	if err != nil {
		return nil, err
	}
	return &policyEnv{compiler: c, env: env, vars: vars}, nil
}

type compiled struct {
	kind, name, text string
	ast              *cel.Ast
	prog             cel.Program
	static           checker.CostEstimate
}

func (pe *policyEnv) compile(kind, name, text string, size uint64) (*compiled, error) {
	ast, iss := pe.env.Compile(text)
	if iss != nil && iss.Err() != nil {
		return nil, fmt.Errorf("%s %s: %v", kind, name, iss.Err())
	}
	est, err := pe.env.EstimateCost(ast, &library.CostEstimator{SizeEstimator: boundSizes{size}})
	if err != nil {
		return nil, fmt.Errorf("%s %s: estimate: %v", kind, name, err)
	}
	prog, err := pe.env.Program(ast, cel.InterruptCheckFrequency(celconfig.CheckFrequency))
	if err != nil {
		return nil, err
	}
	return &compiled{kind: kind, name: name, text: text, ast: ast, prog: prog, static: est}, nil
}

// object under admission, as kube-apiserver hands it to the policy.
type object struct {
	label string
	u     *unstructured.Unstructured
	gvr   schema.GroupVersionResource
}

func (o object) attrs() (*admission.VersionedAttributes, *admissionv1.AdmissionRequest) {
	gvk := o.u.GroupVersionKind()
	a := admission.NewAttributesRecord(o.u, nil, gvk, o.u.GetNamespace(), o.u.GetName(), o.gvr, "",
		admission.Create, nil, true, &user.DefaultInfo{Name: "vap-cost"})
	va := &admission.VersionedAttributes{Attributes: a, VersionedObject: o.u, VersionedKind: gvk}
	return va, plugincel.CreateAdmissionRequest(a, metav1GVR(o.gvr), metav1GVK(gvk))
}

// runtime costs of one evaluation, program by program, in kube-apiserver's order.
type evalCost struct {
	perExpr  map[string]uint64 // kind/name -> actual cost
	failed   map[string]bool
	total    int64 // from ForInput: budget - remaining (variables + validations)
	messages uint64
	match    int64
	matched  bool
}

func toActivationMap(o object) (map[string]any, error) {
	va, req := o.attrs()
	reqU, err := runtime.DefaultUnstructuredConverter.ToUnstructured(req)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		plugincel.ObjectVarName:    va.VersionedObject.(*unstructured.Unstructured).Object,
		plugincel.OldObjectVarName: nil,
		plugincel.RequestVarName:   reqU,
		plugincel.NamespaceVarName: nil,
	}, nil
}

func evaluate(p *admv1.ValidatingAdmissionPolicy, pe *policyEnv, vars, vals, msgs []*compiled, o object) (*evalCost, error) {
	ec := &evalCost{perExpr: map[string]uint64{}, failed: map[string]bool{}}
	act, err := toActivationMap(o)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	run := func(c *compiled, a map[string]any) (ref.Val, uint64, error) {
		v, det, err := c.prog.ContextEval(ctx, a)
		var cost uint64
		if det != nil && det.ActualCost() != nil {
			cost = *det.ActualCost()
		}
		return v, cost, err
	}
	// The variables, each once, in declaration order (each reads only the ones before it).
	values := map[string]any{}
	act[plugincel.VariableVarName] = values
	for _, c := range vars {
		v, cost, err := run(c, act)
		ec.perExpr["var/"+c.name] = cost
		if err != nil {
			return nil, fmt.Errorf("variable %s: %v", c.name, err)
		}
		values[c.name] = v
	}
	for i, c := range vals {
		v, cost, err := run(c, act)
		ec.perExpr["val/"+c.name] = cost
		if err != nil {
			return nil, fmt.Errorf("validation %s: %v", c.name, err)
		}
		if b, ok := v.Value().(bool); ok && !b {
			ec.failed[c.name] = true
		}
		// kube-apiserver 1.33 evaluates every messageExpression on every request, the
		// validation failing or not (validator.Validate), as a second pass.
		if msgs[i] != nil {
			_, mc, err := run(msgs[i], act)
			if err != nil {
				return nil, fmt.Errorf("messageExpression %s: %v", c.name, err)
			}
			ec.perExpr["msg/"+c.name] = mc
		}
	}
	// kube-apiserver's own evaluator for the policy's total and for its match conditions.
	va, req := o.attrs()
	var accessors []plugincel.ExpressionAccessor
	for _, v := range p.Spec.Validations {
		accessors = append(accessors, boolExpr(v.Expression))
	}
	cond := pe.compiler.CompileCondition(accessors, opts, environment.StoredExpressions)
	_, remaining, err := cond.ForInput(ctx, va, req, plugincel.OptionalVariableBindings{}, nil, celconfig.RuntimeCELCostBudget)
	if err != nil {
		return nil, err
	}
	ec.total = celconfig.RuntimeCELCostBudget - remaining
	// The messages' pass: a context of its own, so the variables they read are evaluated again,
	// charged to what the validations left of the budget.
	accessors = nil
	for _, v := range p.Spec.Validations {
		if v.MessageExpression != "" {
			accessors = append(accessors, strExpr(v.MessageExpression))
		}
	}
	if len(accessors) > 0 {
		mcond := pe.compiler.CompileCondition(accessors, plugincel.OptionalVariableDeclarations{StrictCost: true}, environment.StoredExpressions)
		_, left, err := mcond.ForInput(ctx, va, req, plugincel.OptionalVariableBindings{}, nil, remaining)
		if err != nil {
			return nil, err
		}
		ec.messages = uint64(remaining - left)
	}
	ec.matched = true
	if len(p.Spec.MatchConditions) > 0 {
		var ms []plugincel.ExpressionAccessor
		for _, m := range p.Spec.MatchConditions {
			ms = append(ms, boolExpr(m.Expression))
		}
		mc := pe.compiler.CompileCondition(ms, opts, environment.StoredExpressions)
		res, remaining, err := mc.ForInput(ctx, va, req, plugincel.OptionalVariableBindings{}, nil, celconfig.RuntimeCELCostBudgetMatchConditions)
		if err != nil {
			return nil, err
		}
		ec.match = celconfig.RuntimeCELCostBudgetMatchConditions - remaining
		for _, r := range res {
			if r.Error != nil {
				return nil, r.Error
			}
			if b, ok := r.EvalResult.Value().(bool); ok && !b {
				ec.matched = false
			}
		}
	}
	return ec, nil
}

func checkName(v admv1.Validation, i int) string {
	msg := v.Message
	if msg == "" {
		msg = v.MessageExpression
	}
	msg = strings.TrimLeft(msg, "'\"")
	if j := strings.Index(msg, ": "); j > 0 && !strings.ContainsAny(msg[:j], " '\"+") {
		return msg[:j]
	}
	return fmt.Sprintf("validation %d", i)
}

func readPolicies(path string) ([]*admv1.ValidatingAdmissionPolicy, error) {
	docs, err := readDocs(path)
	if err != nil {
		return nil, err
	}
	var out []*admv1.ValidatingAdmissionPolicy
	for _, d := range docs {
		var meta struct{ Kind string }
		if err := yaml.Unmarshal(d, &meta); err != nil {
			return nil, err
		}
		if meta.Kind != "ValidatingAdmissionPolicy" {
			continue
		}
		p := &admv1.ValidatingAdmissionPolicy{}
		if err := yaml.UnmarshalStrict(d, p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func readDocs(path string) ([][]byte, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	yr := utilyaml.NewYAMLReader(bufio.NewReader(r))
	var docs [][]byte
	for {
		d, err := yr.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(d)) > 0 {
			docs = append(docs, d)
		}
	}
}

// saturated: cel-go's estimate adds and multiplies unbounded sizes up to the largest uint64.
const saturated = math.MaxUint64 / 16

func fmtCost(c uint64) string {
	if c >= saturated {
		return "unbounded"
	}
	return fmt.Sprintf("%d", c)
}

func pct(c uint64, limit int64) string {
	if c >= saturated {
		return "-"
	}
	return fmt.Sprintf("%.3g%%", 100*float64(c)/float64(limit))
}

func main() {
	size := flag.Uint64("size", 0, "bound every list, map and string size the estimator cannot derive (0: unbounded, as kube-apiserver sees an untyped object)")
	maxPercent := flag.Float64("max-percent", 0, "exit 1 when a runtime cost exceeds this share of its limit")
	verbose := flag.Bool("v", false, "print every variable and validation, not only the dearest")
	top := flag.Int("top", 8, "how many of the dearest validations to print per policy")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: vap-cost [-size N] [-max-percent P] [-v] POLICIES.yaml [OBJECT.yaml ...]")
		os.Exit(2)
	}
	policies, err := readPolicies(flag.Arg(0))
	if err != nil {
		fatal(err)
	}
	objects := builtinObjects()
	if flag.NArg() > 1 {
		objects = nil
		for _, path := range flag.Args()[1:] {
			docs, err := readDocs(path)
			if err != nil {
				fatal(err)
			}
			for _, d := range docs {
				u := &unstructured.Unstructured{}
				if err := yaml.Unmarshal(d, &u.Object); err != nil {
					fatal(err)
				}
				objects = append(objects, object{label: u.GetKind() + "/" + u.GetName(), u: u, gvr: guessGVR(u)})
			}
		}
	}
	over := 0
	fmt.Printf("limits: %d per expression (PerCallLimit), %d per policy evaluation (RuntimeCELCostBudget), %d for matchConditions\n",
		celconfig.PerCallLimit, celconfig.RuntimeCELCostBudget, celconfig.RuntimeCELCostBudgetMatchConditions)
	if *size == 0 {
		fmt.Println("static: cel-go's estimate with Kubernetes' library costs, object untyped (sizes unbounded)")
	} else {
		fmt.Printf("static: cel-go's estimate with Kubernetes' library costs, every size it cannot derive bounded by %d\n", *size)
	}
	fmt.Print("runtime objects:")
	for i, o := range objects {
		fmt.Printf(" [%d] %s", i+1, o.label)
	}
	fmt.Println()
	for _, p := range policies {
		pe, err := newPolicyEnv(p)
		if err != nil {
			fatal(fmt.Errorf("%s: %v", p.Name, err))
		}
		// The variables the validations and messages read, directly or through others: the API
		// server evaluates a variable only when an expression reads it.
		used := map[string]bool{}
		var texts []string
		for _, v := range p.Spec.Validations {
			texts = append(texts, v.Expression, v.MessageExpression)
		}
		for changed := true; changed; {
			changed = false
			for _, v := range pe.vars {
				if used[v.name] {
					continue
				}
				for _, t := range texts {
					if reads(t, v.name) {
						used[v.name] = true
						texts = append(texts, v.text)
						changed = true
						break
					}
				}
			}
		}
		var vars, vals, msgs []*compiled
		for _, v := range pe.vars {
			c, err := pe.compile("var", v.name, v.text, *size)
			if err != nil {
				fatal(fmt.Errorf("%s: %v", p.Name, err))
			}
			vars = append(vars, c)
		}
		for i, v := range p.Spec.Validations {
			c, err := pe.compile("val", checkName(v, i), v.Expression, *size)
			if err != nil {
				fatal(fmt.Errorf("%s: %v", p.Name, err))
			}
			vals = append(vals, c)
			var m *compiled
			if v.MessageExpression != "" {
				if m, err = pe.compile("msg", c.name, v.MessageExpression, *size); err != nil {
					fatal(fmt.Errorf("%s: %v", p.Name, err))
				}
			}
			msgs = append(msgs, m)
		}
		var matches []*compiled
		for _, m := range p.Spec.MatchConditions {
			c, err := pe.compile("match", m.Name, m.Expression, *size)
			if err != nil {
				fatal(fmt.Errorf("%s: %v", p.Name, err))
			}
			matches = append(matches, c)
		}
		var costs []*evalCost
		for _, o := range objects {
			if !matchesResource(p, o) {
				costs = append(costs, nil)
				continue
			}
			ec, err := evaluate(p, pe, vars, vals, msgs, o)
			if err != nil {
				fatal(fmt.Errorf("%s on %s: %v", p.Name, o.label, err))
			}
			costs = append(costs, ec)
		}
		var staticSum uint64
		add := func(c uint64) {
			if staticSum != math.MaxUint64 {
				if c == math.MaxUint64 || staticSum+c < staticSum {
					staticSum = math.MaxUint64
				} else {
					staticSum += c
				}
			}
		}
		var all []*compiled
		for _, c := range vars {
			if used[c.name] {
				all = append(all, c)
			}
		}
		all = append(all, vals...)
		for _, c := range all {
			add(c.static.Max)
		}
		for _, c := range msgs {
			if c != nil {
				add(c.static.Max)
			}
		}
		fmt.Printf("\n%s: %d validations, %d variables (%d read), %d matchConditions\n", p.Name, len(vals), len(vars), len(used), len(matches))
		fmt.Printf("  %-5s %-44s %14s %9s", "", "expression", "static max", "of 1M")
		for i := range objects {
			fmt.Printf(" %10s", fmt.Sprintf("[%d]", i+1))
		}
		fmt.Println()
		row := func(c *compiled, key string) {
			fmt.Printf("  %-5s %-44s %14s %9s", c.kind, trunc(c.name, 44), fmtCost(c.static.Max), pct(c.static.Max, celconfig.PerCallLimit))
			for _, ec := range costs {
				if ec == nil {
					fmt.Printf(" %10s", "-")
					continue
				}
				cost := ec.perExpr[key]
				mark := ""
				if c.kind != "var" && ec.failed[c.name] {
					mark = "!"
				}
				fmt.Printf(" %10s", fmt.Sprintf("%d%s", cost, mark))
			}
			fmt.Println()
		}
		// every program (printed or not) against the per-expression limit
		for i, ec := range costs {
			if ec == nil || *maxPercent <= 0 {
				continue
			}
			for key, cost := range ec.perExpr {
				if strings.HasPrefix(key, "var/") && !used[strings.TrimPrefix(key, "var/")] {
					continue
				}
				if float64(cost) > *maxPercent/100*float64(celconfig.PerCallLimit) {
					over++
					fmt.Fprintf(os.Stderr, "vap-cost: %s %s costs %d on %s, over %.3g%% of the per-expression limit\n", p.Name, key, cost, objects[i].label, *maxPercent)
				}
			}
		}
		shown := all
		if !*verbose {
			// the dearest by static estimate, then by the largest runtime cost
			shown = append([]*compiled{}, all...)
			runtimeMax := func(c *compiled) uint64 {
				var m uint64
				for _, ec := range costs {
					if ec != nil && ec.perExpr[c.kind+"/"+c.name] > m {
						m = ec.perExpr[c.kind+"/"+c.name]
					}
				}
				return m
			}
			sort.SliceStable(shown, func(i, j int) bool {
				if shown[i].static.Max != shown[j].static.Max {
					return shown[i].static.Max > shown[j].static.Max
				}
				return runtimeMax(shown[i]) > runtimeMax(shown[j])
			})
			if len(shown) > *top {
				shown = shown[:*top]
			}
		}
		for _, c := range shown {
			row(c, c.kind+"/"+c.name)
		}
		if len(matches) > 0 {
			var names []string
			var est uint64
			for _, c := range matches {
				names = append(names, c.name)
				if c.static.Max >= saturated || est+c.static.Max >= saturated {
					est = math.MaxUint64
				} else {
					est += c.static.Max
				}
			}
			fmt.Printf("  %-5s %-44s %14s %9s", "match", trunc(strings.Join(names, ", "), 44), fmtCost(est), pct(est, celconfig.RuntimeCELCostBudgetMatchConditions))
			for _, ec := range costs {
				if ec == nil {
					fmt.Printf(" %10s", "-")
				} else {
					fmt.Printf(" %10d", ec.match)
				}
			}
			fmt.Println()
		}
		fmt.Printf("  %-5s %-44s %14s %9s", "total", "both passes (of the 10M budget)", fmtCost(staticSum), pct(staticSum, celconfig.RuntimeCELCostBudget))
		for _, ec := range costs {
			if ec == nil {
				fmt.Printf(" %10s", "-")
				continue
			}
			t := ec.total + int64(ec.messages)
			s := fmt.Sprintf("%d", t)
			if !ec.matched {
				s, t = "skipped", 0
			}
			fmt.Printf(" %10s", s)
			if *maxPercent > 0 && float64(t) > *maxPercent/100*float64(celconfig.RuntimeCELCostBudget) {
				over++
				fmt.Fprintf(os.Stderr, "vap-cost: %s costs %d in all, over %.3g%% of the per-policy budget\n", p.Name, t, *maxPercent)
			}
		}
		fmt.Println()
	}
	fmt.Println("\n(runtime: the cost charged on each object; ! a failing validation; every messageExpression is evaluated on every request, in a second pass that evaluates the variables it reads again, and the total includes both passes; skipped: the matchConditions skip the policy, so only they are charged; unread variables are not shown, nor evaluated by the API server)")
	if over > 0 {
		os.Exit(1)
	}
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "vap-cost:", err)
	os.Exit(2)
}

// reads: does the CEL text read variables.<name>?
func reads(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "variables."+name)
		if j < 0 {
			return false
		}
		end := i + j + len("variables."+name)
		if end == len(text) || !(isIdent(text[end])) {
			return true
		}
		i = end
	}
}

func isIdent(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
