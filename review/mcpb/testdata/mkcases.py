#!/usr/bin/env python3
"""Writes the MCP Bundle folder fixtures under cases/. Each case is a folder; the name says
what it tests. Regenerate with `python3 mkcases.py`; record the oracle with oracle.sh."""
import json, os, shutil, struct, zlib

def png():
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    raw = b''.join(b'\x00' + b'\x10\x20\x30' * 4 for _ in range(4))
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 4, 4, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')

def base(version='0.3', key='manifest_version', **extra):
    m = {key: version, 'name': 'demo', 'version': '1.0.0', 'description': 'A demo server.',
         'author': {'name': 'A. Author'},
         'server': {'type': 'node', 'entry_point': 'server/index.js',
                    'mcp_config': {'command': 'node', 'args': ['${__dirname}/server/index.js']}}}
    m.update(extra)
    return m

cases = {}
def case(name, manifest, files=None, raw=None):
    cases[name] = (manifest, files or {}, raw)

case('good-v0.1-dxt', base('0.1', 'dxt_version'))
case('good-v0.2', base('0.2', privacy_policies=['https://example.com/privacy']))
case('good-v0.3-icon', base('0.3', icon='icon.png'), {'icon.png': png()})
case('good-v0.4-uv', base('0.4', server={'type': 'uv', 'entry_point': 'src/server.py',
     'mcp_config': {'command': 'uv', 'args': ['run', '--directory', '${__dirname}', 'src/server.py']}}), {'src/server.py': 'print("hi")\n'})
case('good-dxt-version-0.3', base('0.3', 'dxt_version'))
case('good-both-versions', dict(base('0.3'), dxt_version='0.3'))
case('good-platform-overrides', base('0.3', server={'type': 'binary', 'entry_point': 'bin/server',
     'mcp_config': {'command': '${__dirname}/bin/server', 'args': ['--stdio'], 'env': {'LOG': 'info'},
                    'platform_overrides': {'win32': {'command': '${__dirname}\\bin\\server.exe'}, 'darwin': {'args': []}}}}),
     {'bin/server': '#!/bin/sh\nexec cat\n', 'bin/server.exe': 'MZ'})
case('good-user-config', base('0.3', server={'type': 'node', 'entry_point': 'server/index.js',
     'mcp_config': {'command': 'node', 'args': ['${__dirname}/server/index.js', '${user_config.dirs}', '--flag=${user_config.verbose}'],
                    'env': {'TOKEN': '${user_config.token}', 'DATA': '${HOME}${/}data'}}},
     user_config={'dirs': {'type': 'directory', 'title': 'Folders', 'description': 'Folders to read.', 'multiple': True, 'default': ['/a', '/b']},
                  'token': {'type': 'string', 'title': 'Token', 'description': 'API token.', 'sensitive': True, 'required': True},
                  'verbose': {'type': 'boolean', 'title': 'Verbose', 'description': 'Log more.', 'default': True},
                  'limit': {'type': 'number', 'title': 'Limit', 'description': 'Max results.', 'default': 10, 'min': 1, 'max': 100}},
     tools=[{'name': 'read', 'description': 'Read a file.'}], prompts=[{'name': 'p', 'text': 'Use ${arguments.x}', 'arguments': ['x']}],
     compatibility={'claude_desktop': '>=0.10.0', 'platforms': ['darwin', 'linux']}))
case('good-duplicate-key', None, raw=b'{"manifest_version":"0.3","name":"demo","name":"demo","version":"1.0.0","description":"d","author":{"name":"a"},"server":{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node"}}}')
case('good-icon-remote', base('0.3', icon='https://example.com/icon.png'))
case('good-author-url-mailto', base('0.3', author={'name': 'a', 'url': 'mailto:a@example.com', 'email': 'a.b+c@example.co.uk'}))

case('good-localization-uppercase', base('0.3', localization={'resources': 'locales/${LOCALE}.json', 'default_locale': 'en-US'}))
case('bad-localization-no-placeholder', base('0.3', localization={'resources': 'locales/en.json', 'default_locale': 'en-US'}))
case('bad-no-version', {k: v for k, v in base().items() if k != 'manifest_version'})
case('bad-version-number', None, raw=json.dumps(base()).replace('"manifest_version": "0.3"', '"manifest_version": 0.3').encode())
case('bad-version-unknown', base('0.9'))
case('bad-unknown-field-id', base('0.3', id='com.example.demo'))
case('bad-unknown-field-scripts', base('0.3', scripts={'build': 'tsc'}))
case('bad-privacy-in-v0.1', base('0.1', privacy_policies=['https://example.com/privacy']))
case('bad-missing-author', {k: v for k, v in base().items() if k != 'author'})
case('bad-missing-mcp-config', base('0.3', server={'type': 'node', 'entry_point': 'server/index.js'}))
case('bad-uv-in-v0.3', base('0.3', server={'type': 'uv', 'entry_point': 'a.py', 'mcp_config': {'command': 'uv'}}))
case('bad-author-email', base('0.3', author={'name': 'a', 'email': 'not-an-email'}))
case('bad-homepage-url', base('0.3', homepage='not a url'))
case('bad-homepage-host', base('0.3', homepage='https://exa mple.com/'))
case('bad-icon-missing', base('0.3', icon='icon.png'))
case('bad-icon-not-png', base('0.3', icon='icon.png'), {'icon.png': 'GIF89a not a png'})
case('bad-icon-dirname', base('0.3', icon='${__dirname}/icon.png'), {'icon.png': png()})
case('bad-icon-absolute', base('0.3', icon='/tmp/icon.png'))
case('bad-invalid-json', None, raw=b'{"manifest_version": "0.3", "name": }')
case('bad-user-config-no-title', base('0.3', user_config={'k': {'type': 'string', 'description': 'd'}}))
case('bad-user-config-type', base('0.3', user_config={'k': {'type': 'secret', 'title': 't', 'description': 'd'}}))
case('bad-mixed-versions', dict(base('0.2'), dxt_version='0.3'))
case('bad-icons-size', base('0.3', icons=[{'src': 'icon.png', 'size': 'big'}]))
case('bad-args-not-strings', base('0.3', server={'type': 'node', 'entry_point': 'server/index.js', 'mcp_config': {'command': 'node', 'args': [1, 2]}}))
case('bad-override-extra-field', base('0.3', server={'type': 'node', 'entry_point': 'server/index.js',
     'mcp_config': {'command': 'node', 'platform_overrides': {'linux': {'command': 'node', 'cwd': '/tmp'}}}}))
case('bad-platform-unknown', base('0.3', compatibility={'platforms': ['freebsd']}))

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, 'cases')
shutil.rmtree(out, ignore_errors=True)
for name, (m, files, raw) in cases.items():
    d = os.path.join(out, name)
    os.makedirs(d)
    with open(os.path.join(d, 'manifest.json'), 'wb') as f:
        f.write(raw if raw is not None else (json.dumps(m, indent=2) + '\n').encode())
    files = dict(files)
    files.setdefault('server/index.js', '// stand-in server\n')
    for rel, body in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'wb') as f:
            f.write(body if isinstance(body, bytes) else body.encode())
        if isinstance(body, str) and body.startswith('#!'):
            os.chmod(p, 0o755)
