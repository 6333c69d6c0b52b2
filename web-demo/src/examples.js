// The example manifests: the repository's conformant and broken 5G UPF bundles (examples/),
// and two of the playground's own (web-demo/examples/).
import conformant from '../../examples/conformant/cnf.yaml?raw';
import broken from '../../examples/broken/cnf.yaml?raw';
import cronjob from '../examples/cronjob.yaml?raw';
import nads from '../examples/nad-bundle.yaml?raw';

export const EXAMPLES = [
  { id: 'upf-conformant', title: '5G UPF, conformant (helm template output)', text: conformant },
  { id: 'upf-broken', title: '5G UPF, broken: hostPath, privileged init, control plane…', text: broken },
  { id: 'cronjob', title: 'CronJob exporting counters (pod spec three levels down)', text: cronjob },
  { id: 'nad-bundle', title: 'Multus networks: NetworkAttachmentDefinitions and a pod', text: nads },
];

export const DEFAULT_EXAMPLE = EXAMPLES[1];
