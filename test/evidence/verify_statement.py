"""An independent check of a grc-sheets evidence file, with Debian's python3-jwt and python3-cryptography
and none of grc-sheets' code: the relay's signature with its published keys (JWKS), and the statement's
byte hash, length and record count recomputed from a saved copy of the service's answer (or, for an implied
read, of the projection the caller was sent); also the record fingerprint (docs/workbook.md, "Fingerprints").

    python3 verify_statement.py JWKS.json EVIDENCE.json ANSWER.json

Prints one JSON object of what it found; exit 0 when everything agrees, 1 otherwise.
"""
import hashlib, json, sys
import jwt

jwks, evidence, answer = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), open(sys.argv[3], 'rb').read()
found = {'signature': None, 'problems': []}
token = evidence['statement']
header = jwt.get_unverified_header(token)
keys = {k.key_id: k for k in jwt.PyJWKSet(jwks['keys']).keys}
if header.get('typ') != 'grc-sheets-statement+jwt':
    found['problems'].append('typ')
if header.get('kid') not in keys:
    found['signature'] = 'unknown key'
else:
    try:
        payload = jwt.api_jws.PyJWS().decode(token, keys[header['kid']].key, algorithms=['EdDSA', 'ES256'])
        found['signature'] = 'valid'
        claims = json.loads(payload)
        found['claims'] = claims
        if evidence.get('publicKey') != [k for k in jwks['keys'] if k.get('kid') == header['kid']][0]:
            found['problems'].append('publicKey')
        digest = hashlib.sha256(answer).hexdigest()
        # An implied read (docs/relay.md, "projection"): the caller was sent each record cut to `fields`, and
        # the saved answer may be those bytes rather than the service's; either is checked against its claims.
        projection = claims.get('projection')
        received = projection if projection and digest != claims['sha256'] else claims
        found['answer'] = 'projection' if received is projection else 'service'
        if digest != received['sha256']:
            found['problems'].append('sha256')
        if len(answer) != received['length']:
            found['problems'].append('length')
        records = json.loads(answer)
        if len(records) != claims['records'] or claims['records'] != evidence['records']:
            found['problems'].append('records')
        if received is projection and any(set(r) - set(projection['fields']) for r in records):
            found['problems'].append('fields')
        if claims['dataset'] != evidence['dataset'] or claims['kind'] != 'read':
            found['problems'].append('dataset')
        h = hashlib.sha256()
        for r in records:
            h.update((json.dumps(r, sort_keys=True, separators=(',', ':'), ensure_ascii=False) + '\n').encode('utf-8'))
        if evidence.get('fingerprint') and h.hexdigest() != evidence['fingerprint']['sha256']:
            found['problems'].append('fingerprint')
    except jwt.InvalidSignatureError:
        found['signature'] = 'invalid'
if found['signature'] != 'valid':
    found['problems'].append('signature')
print(json.dumps(found))
sys.exit(0 if not found['problems'] else 1)
