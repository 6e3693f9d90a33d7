"""An independent check of a workbook's write receipts, with Debian's python3-jwt, python3-cryptography and
openpyxl and none of grc-sheets' code (docs/evidence.md, "Write receipts"): each receipt in the Write-back
audit sheet's "Relay receipt" column verifies with the relay's published keys (JWKS); its write reference is
one of its row's "Sent body SHA-256" lines, with the same body hash; and that hash is the SHA-256 of the
exact bytes sent, saved as SENT_DIR/<write reference>.

    python3 verify_receipts.py JWKS.json SENT_DIR BOOK.xlsx [SENT_DIR BOOK.xlsx ...]

Prints a JSON list of what it found, one object per book; exit 0 when everything agrees, 1 otherwise.
"""
import hashlib, json, os, sys
import jwt
from openpyxl import load_workbook

jwks = json.load(open(sys.argv[1]))
keys = {k.key_id: k for k in jwt.PyJWKSet(jwks['keys']).keys}


def check(sent_dir, book):
    ws = load_workbook(book)['Write-back audit']
    table = next(iter(ws.tables.values()))
    rows = [[c.value for c in r] for r in ws[table.ref]]
    heads = rows[0]
    receipt_at, sent_at = heads.index('Relay receipt'), heads.index('Sent body SHA-256')
    found = {'receipts': 0, 'problems': []}

    def problem(row, what):
        found['problems'].append({'row': row, 'problem': what})

    for n, row in enumerate(rows[1:], start=2):
        cell = (row[receipt_at] or '').strip()
        if not cell or cell.startswith('none:') or cell.startswith('no receipt:'):
            continue
        # Each line of the row's sent writes: the body's SHA-256, a space, the write's reference.
        sent = {line.split()[1]: line.split()[0] for line in (row[sent_at] or '').splitlines() if len(line.split()) >= 2}
        for token in cell.splitlines():
            found['receipts'] += 1
            header = jwt.get_unverified_header(token)
            if header.get('typ') != 'grc-sheets-statement+jwt' or header.get('kid') not in keys:
                problem(n, 'key')
                continue
            try:
                claims = json.loads(jwt.api_jws.PyJWS().decode(token, keys[header['kid']].key, algorithms=['EdDSA', 'ES256']))
            except jwt.InvalidSignatureError:
                problem(n, 'signature')
                continue
            if claims.get('kind') != 'write':
                problem(n, 'kind')
                continue
            ref = claims.get('writeRef')
            if ref not in sent:
                problem(n, 'writeRef')
                continue
            if sent[ref] != claims['bodySha256']:
                problem(n, 'row-body')
            path = os.path.join(sent_dir, ref)
            if not os.path.exists(path) or hashlib.sha256(open(path, 'rb').read()).hexdigest() != claims['bodySha256']:
                problem(n, 'bytes')
    return found


pairs = sys.argv[2:]
results = [check(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
print(json.dumps(results))
sys.exit(0 if all(r['receipts'] and not r['problems'] for r in results) else 1)
