"""Checks an installed transcription engine (a virtual environment made by
install-transcriber) against the hashes it was installed with: every file pip
installed, against the sha256 pip recorded for it from the hash-pinned wheel
(each package's dist-info RECORD), and the multilingual model's model.bin
against the hash pinned for it. Run by the system's python3, so that a
damaged environment's own Python cannot hide its damage. The same check serves
every environment installed from pinned wheels (scripts/lib/pinned-venv.sh:
the encryption engine, the tests' nio peer).

    python3 check-transcriber.py DIR [JOINED_MODEL_SHA256]

Prints each damaged or missing file, one per line ("PATH<TAB>PACKAGE", the
package empty where the file is not one package's: then only a new
environment mends it), and exits 2 when any is; 0 when every file is as
installed.

    python3 check-transcriber.py --requirements REQUIREMENTS PACKAGE...

Prints the requirements file's entries (pin and hashes) for those packages:
what reinstalls only them."""
import base64, csv, glob, hashlib, os, subprocess, sys


def digest(path, algorithm="sha256"):
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h


def canonical(name):
    return name.lower().replace("_", "-").replace(".", "-")


def damaged_records(root):
    """(path, package) of each file pip installed that is not as recorded."""
    site = glob.glob(os.path.join(root, "lib", "python3*", "site-packages"))
    if not site:
        yield os.path.join(root, "lib"), ""
        return
    site = site[0]
    records = glob.glob(os.path.join(site, "*.dist-info", "RECORD"))
    if not records:
        yield site, ""
    for record in records:
        package = canonical(os.path.basename(os.path.dirname(record))[:-len(".dist-info")].rsplit("-", 1)[0])
        with open(record, newline="", encoding="utf-8") as f:
            for row in csv.reader(f):
                if len(row) < 2 or not row[1] or "=" not in row[1]:
                    continue  # RECORD itself, and files pip compiled (.pyc) carry no hash
                path = os.path.normpath(os.path.join(site, row[0]))
                algorithm, _, wanted = row[1].partition("=")
                try:
                    got = base64.urlsafe_b64encode(digest(path, algorithm).digest()).rstrip(b"=").decode()
                except OSError:
                    yield path, package
                    continue
                if got != wanted:
                    yield path, package


def requirements_for(path, packages):
    """The entries of a --require-hashes file (a pin and its --hash lines) for `packages`."""
    wanted = {canonical(p) for p in packages}
    entry, keep = [], False
    for line in open(path, encoding="utf-8"):
        if line.strip() and not line[0].isspace() and not line.startswith("#"):
            if keep:
                print("".join(entry), end="")
            entry, keep = [], canonical(line.split("==")[0].strip()) in wanted
        if not line.startswith("#"):
            entry.append(line)
    if keep:
        print("".join(entry), end="")


def main():
    if sys.argv[1] == "--requirements":
        requirements_for(sys.argv[2], sys.argv[3:])
        return
    root = sys.argv[1]
    damaged = list(damaged_records(root))
    python = os.path.join(root, "bin", "python")
    # A Python that does not start (a dangling link, a truncated file) breaks everything.
    if not (os.path.isfile(python) and os.access(python, os.X_OK)) or \
            subprocess.run([python, "-c", ""], stderr=subprocess.DEVNULL).returncode != 0:
        damaged.append((python, ""))
    if len(sys.argv) > 2:
        model = os.path.join(root, "whisper-base", "model.bin")
        if os.path.exists(os.path.join(root, "whisper-base")):
            try:
                if digest(model).hexdigest() != sys.argv[2]:
                    damaged.append((model, ""))
            except OSError:
                damaged.append((model, ""))
    for path, package in damaged:
        print(os.path.relpath(path, root) + "\t" + package)
    sys.exit(2 if damaged else 0)


main()
