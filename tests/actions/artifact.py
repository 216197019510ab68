#!/usr/bin/env python3
"""The act test's stand-in for actions/upload-artifact, download-artifact, upload-pages-artifact
and deploy-pages (tests/t1250-act.sh copies it beside each action.yml of tests/actions/).

It speaks act's own artifact server (act --artifact-server-path DIR): the artifact service of
GitHub's results API (twirp, JSON) at $ACTIONS_RESULTS_URL, as @actions/artifact v2 does, so an
artifact lands in DIR/<run id>/<name>/. Standard library only.

  artifact.py upload NAME PATH IF-NO-FILES-FOUND HIDDEN   zip PATH (a directory: its content)
  artifact.py download NAME PATTERN MERGE PATH            one artifact, or every one matching
                                                          PATTERN (into PATH/<name>/ unless MERGE)
  artifact.py pages-upload NAME PATH                      PATH as artifact.tar in artifact NAME
  artifact.py pages-deploy NAME DEST                      replace DEST with artifact NAME's site
"""
import base64
import fnmatch
import http.client
import io
import json
import os
import shutil
import sys
import tarfile
import urllib.error
import urllib.request
import zipfile

SERVICE = "twirp/github.actions.results.api.v1.ArtifactService/"


def die(msg):
    print("::error::" + msg)
    sys.exit(1)


def output(key, value):
    with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as f:
        f.write("%s=%s\n" % (key, value))


def backend_ids():
    """The run's and the job's backend ids, from the runtime token's scope
    ("Actions.Results:<run>:<job>"), as @actions/artifact reads them."""
    token = os.environ.get("ACTIONS_RUNTIME_TOKEN", "")
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        for scope in claims.get("scp", "").split():
            parts = scope.split(":")
            if parts[0] == "Actions.Results" and len(parts) == 3:
                return parts[1], parts[2]
    except (IndexError, ValueError):
        pass
    run = os.environ.get("GITHUB_RUN_ID", "1")
    return run, run


def call(method, body):
    url = os.environ.get("ACTIONS_RESULTS_URL")
    if not url:
        die("no ACTIONS_RESULTS_URL: run act with --artifact-server-path DIR")
    run, job = backend_ids()
    body = dict(body, workflowRunBackendId=run, workflowJobRunBackendId=job)
    req = urllib.request.Request(url.rstrip("/") + "/" + SERVICE + method, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"{}")


def transfer(url, data=None):
    req = urllib.request.Request(url, data=data, method="PUT" if data is not None else "GET",
                                 headers={"Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(req, timeout=300) as r:
        return r.read()


def send(name, blob):
    """One artifact: create it, upload its zip (a block and the block list), finalize it."""
    url = call("CreateArtifact", {"name": name, "version": 4})["signedUploadUrl"]
    transfer(url + "&comp=block", blob)
    transfer(url + "&comp=blocklist", b"")
    done = call("FinalizeArtifact", {"name": name, "size": str(len(blob))})
    print("uploaded artifact %s (%d bytes)" % (name, len(blob)))
    return str(done.get("artifactId") or done.get("artifact_id") or name)


def names():
    try:
        return [a["name"] for a in call("ListArtifacts", {}).get("artifacts", [])]
    except (urllib.error.HTTPError, http.client.RemoteDisconnected) as e:
        # act's server fails this (it closes the connection) for a run that has no artifact
        # yet: that is an empty list, as GitHub's service answers
        print("(ListArtifacts: %r: taken as no artifacts)" % e)
        return []


def fetch(name):
    return transfer(call("GetSignedArtifactURL", {"name": name})["signedUrl"])


def workspace(path):
    return os.path.join(os.environ.get("GITHUB_WORKSPACE", "."), path or ".")


def upload(name, path, if_none, hidden):
    """As upload-artifact v4+: a directory gives its content; hidden files only when asked."""
    top = workspace(path)
    files = []
    if os.path.isfile(top):
        files = [(top, os.path.basename(top))]
    for root, dirs, found in os.walk(top):
        dirs[:] = sorted(d for d in dirs if hidden == "true" or not d.startswith("."))
        files += [(os.path.join(root, f), os.path.relpath(os.path.join(root, f), top))
                  for f in sorted(found) if hidden == "true" or not f.startswith(".")]
    if not files:
        msg = "No files were found with the provided path: %s. No artifacts will be uploaded." % path
        if if_none == "error":
            die(msg)
        print(("::warning::" if if_none == "warn" else "") + msg)
        return
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for full, arc in files:
            z.write(full, arc)
    output("artifact-id", send(name, buf.getvalue()))


def download(name, pattern, merge, path):
    dest = workspace(path)
    listed = names()
    if name:
        if name not in listed:
            die("Artifact not found for name: " + name)
        chosen, merge = [name], "true"
    else:
        chosen = sorted(n for n in listed if not pattern or fnmatch.fnmatchcase(n, pattern))
    print("Found %d artifact(s)" % len(chosen))
    os.makedirs(dest, exist_ok=True)
    for n in chosen:
        target = dest if merge == "true" else os.path.join(dest, n)
        zipfile.ZipFile(io.BytesIO(fetch(n))).extractall(target)
        print("downloaded artifact %s into %s" % (n, target))
    output("download-path", dest)


def pages_upload(name, path):
    site = workspace(path)
    if not os.path.isdir(site):
        die("upload-pages-artifact: %s is not a directory" % path)
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w") as t:
        t.add(site, arcname=".", filter=lambda ti: None if ti.name.startswith("./.git") else ti)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("artifact.tar", tar.getvalue())
    output("artifact_id", send(name, buf.getvalue()))


def pages_deploy(name, dest):
    """As a Pages deployment: the site is replaced whole (DEST: act --env ACT_PAGES_DIR=DIR)."""
    if name not in names():
        die("deploy-pages: no artifact %s in this run (upload-pages-artifact first)" % name)
    tar = zipfile.ZipFile(io.BytesIO(fetch(name))).read("artifact.tar")
    if not dest:
        die("deploy-pages: ACT_PAGES_DIR is not set: nowhere to deploy")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest)
    print("deployed the site into " + dest)
    output("page_url", "file://" + os.path.abspath(dest) + "/")


COMMANDS = {"upload": upload, "download": download, "pages-upload": pages_upload, "pages-deploy": pages_deploy}
if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
