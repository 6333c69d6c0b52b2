package main

import (
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/server/resourceconfig"
	serverstore "k8s.io/apiserver/pkg/server/storage"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/compatibility"
	"k8s.io/component-base/featuregate"
)

// registry is the GroupVersionRegistry MergeAPIResourceConfigs asks: the group versions of the
// request, as the API server's scheme would list them.
type registry struct {
	versions []schema.GroupVersion
}

func (r registry) IsGroupRegistered(group string) bool {
	for _, gv := range r.versions {
		if gv.Group == group {
			return true
		}
	}
	return false
}

func (r registry) IsVersionRegistered(v schema.GroupVersion) bool {
	for _, gv := range r.versions {
		if gv == v {
			return true
		}
	}
	return false
}

func (r registry) PrioritizedVersionsAllGroups() []schema.GroupVersion { return r.versions }

func (r registry) PrioritizedVersionsForGroup(group string) []schema.GroupVersion {
	var out []schema.GroupVersion
	for _, gv := range r.versions {
		if gv.Group == group {
			out = append(out, gv)
		}
	}
	return out
}

type runtimeConfigAnswer struct {
	OK  bool   `json:"ok"`
	Err string `json:"err,omitempty"`
	// Versions maps each registered "group/version" to whether it is served.
	Versions map[string]bool `json:"versions,omitempty"`
	// Resources maps each probed "group/version/resource" to ResourceEnabled.
	Resources map[string]bool `json:"resources,omitempty"`
}

// runtimeConfig reads each --runtime-config occurrence with the flag's own type
// (cliflag.ConfigurationMap, through pflag), checks it as APIEnablementOptions.Validate does and
// merges it with resourceconfig.MergeAPIResourceConfigs over a default where GA versions are on,
// beta and alpha ones off, and the request's default resources on.
func runtimeConfig(req request) runtimeConfigAnswer {
	overrides := cliflag.ConfigurationMap{}
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	fs.Var(&overrides, "runtime-config", "")
	args := make([]string, 0, len(req.Flags))
	for _, f := range req.Flags {
		args = append(args, "--runtime-config="+f)
	}
	if err := fs.Parse(args); err != nil {
		return runtimeConfigAnswer{Err: err.Error()}
	}
	reg := registry{}
	for _, gv := range req.Registry {
		parsed, err := schema.ParseGroupVersion(gv)
		if err != nil {
			return runtimeConfigAnswer{Err: "bad registry entry " + gv}
		}
		reg.versions = append(reg.versions, parsed)
	}
	// APIEnablementOptions.Validate (k8s.io/apiserver/pkg/server/options, whose package brings in
	// the whole generic API server): its checks, verbatim, over the real ParseGroups.
	if overrides[resourceconfig.APIAll] == "false" && len(overrides) == 1 {
		return runtimeConfigAnswer{Err: "invalid runtime-config with only api/all=false"}
	}
	groups, err := resourceconfig.ParseGroups(overrides)
	if err != nil {
		return runtimeConfigAnswer{Err: err.Error()}
	}
	for _, group := range groups {
		if !reg.IsGroupRegistered(group) {
			return runtimeConfigAnswer{Err: "unknown api groups " + group}
		}
	}
	defaults := serverstore.NewResourceConfig()
	for _, gv := range reg.versions {
		if isGA(gv.Version) {
			defaults.EnableVersions(gv)
		} else {
			defaults.DisableVersions(gv)
		}
	}
	for _, gvr := range req.DefaultResources {
		defaults.EnableResources(parseGVR(gvr))
	}
	merged, err := resourceconfig.MergeAPIResourceConfigs(defaults, overrides, reg)
	if err != nil {
		return runtimeConfigAnswer{Err: err.Error()}
	}
	answer := runtimeConfigAnswer{OK: true, Versions: map[string]bool{}, Resources: map[string]bool{}}
	for _, gv := range reg.versions {
		answer.Versions[gv.Group+"/"+gv.Version] = merged.GroupVersionConfigs[gv]
	}
	for _, gvr := range req.Probes {
		answer.Resources[gvr] = merged.ResourceEnabled(parseGVR(gvr))
	}
	return answer
}

func isGA(v string) bool {
	if len(v) < 2 || v[0] != 'v' {
		return false
	}
	for _, c := range v[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseGVR reads "group/version/resource" (the group may be empty).
func parseGVR(s string) schema.GroupVersionResource {
	parts := strings.SplitN(s, "/", 3)
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	return schema.GroupVersionResource{Group: parts[0], Version: parts[1], Resource: parts[2]}
}

type featureGatesAnswer struct {
	OK  bool   `json:"ok"`
	Err string `json:"err,omitempty"`
	// Enabled maps every known gate (AllAlpha and AllBeta included) to Enabled().
	Enabled map[string]bool `json:"enabled,omitempty"`
}

// featureGates reads --feature-gates as kube-apiserver, kube-controller-manager and
// kube-scheduler do: the flag belongs to component-base's compatibility registry
// (component:key=value pairs, every occurrence collected), and Set hands each component's pairs
// to its feature gate's Set. The gate knows the request's features, each "alpha", "beta", "ga",
// "deprecated", "prealpha", with "+on" for a true default and "+locked" for locked to default.
func featureGates(req request) featureGatesAnswer {
	gate := featuregate.NewVersionedFeatureGate(version.MustParse("1.34"))
	specs := map[featuregate.Feature]featuregate.VersionedSpecs{}
	names := make([]string, 0, len(req.Known)+2)
	for name, desc := range req.Known {
		spec := featuregate.FeatureSpec{Version: version.MajorMinor(1, 30)}
		parts := strings.Split(desc, "+")
		switch parts[0] {
		case "alpha":
			spec.PreRelease = featuregate.Alpha
		case "beta":
			spec.PreRelease = featuregate.Beta
		case "ga":
			spec.PreRelease = featuregate.GA
		case "deprecated":
			spec.PreRelease = featuregate.Deprecated
		case "prealpha":
			spec.PreRelease = featuregate.PreAlpha
		default:
			return featureGatesAnswer{Err: "bad stage " + desc}
		}
		for _, p := range parts[1:] {
			switch p {
			case "on":
				spec.Default = true
			case "locked":
				spec.LockToDefault = true
			}
		}
		specs[featuregate.Feature(name)] = featuregate.VersionedSpecs{spec}
		if spec.PreRelease == featuregate.Deprecated {
			// A gate must say what it was before it was deprecated.
			before := featuregate.FeatureSpec{Version: version.MajorMinor(1, 0), PreRelease: featuregate.GA, Default: true}
			specs[featuregate.Feature(name)] = featuregate.VersionedSpecs{before, spec}
		}
		names = append(names, name)
	}
	if err := gate.AddVersioned(specs); err != nil {
		return featureGatesAnswer{Err: "bad features: " + err.Error()}
	}
	globals := compatibility.NewComponentGlobalsRegistry()
	if err := globals.Register(compatibility.DefaultKubeComponent, compatibility.NewEffectiveVersionFromString("1.34", "", ""), gate); err != nil {
		return featureGatesAnswer{Err: "register: " + err.Error()}
	}
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	globals.AddFlags(fs)
	args := make([]string, 0, len(req.Flags))
	for _, f := range req.Flags {
		args = append(args, "--feature-gates="+f)
	}
	if err := fs.Parse(args); err != nil {
		return featureGatesAnswer{Err: err.Error()}
	}
	if err := globals.Set(); err != nil {
		return featureGatesAnswer{Err: err.Error()}
	}
	answer := featureGatesAnswer{OK: true, Enabled: map[string]bool{}}
	names = append(names, "AllAlpha", "AllBeta")
	sort.Strings(names)
	for _, name := range names {
		answer.Enabled[name] = gate.Enabled(featuregate.Feature(name))
	}
	return answer
}
