# The fleet's artifacts, offline on the host (tests/fleet/run): the
# Kubernetes manifests (tools/procmem/dist/kubernetes) against Kubernetes'
# JSON schemas, their policy lines against procmem's parser, the playbook
# (tools/procmem/dist/ansible), the Containerfile.  The schemas come from
# the npm registry once (lab/k8s-schemas, after lab/deps brought npm),
# before make check runs any driver; the driver fetches nothing.
K8S_SCHEMAS := build/k8s-schemas/SOURCE
$(K8S_SCHEMAS): lab/k8s-schemas | deps
	lab/k8s-schemas >/dev/null
check: $(K8S_SCHEMAS)
CHECKS += tests/fleet/run
