{{- define "ra2.name" -}}{{ .Release.Name }}-ra2{{- end -}}
{{- define "ra2.labels" -}}
app.kubernetes.io/name: ra2
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: ra2
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}
{{- define "ra2.selector" -}}
app.kubernetes.io/name: ra2
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
{{- define "ra2.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}
{{- /* The settings' ConfigMap is immutable and named by its content: a change rolls the pods. */ -}}
{{- define "ra2.configName" -}}
{{ include "ra2.name" . }}-{{ toYaml .Values.settings | sha256sum | trunc 10 }}
{{- end -}}
