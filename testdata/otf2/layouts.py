"""Print the on-disk layout of every OTF2 record in the code of otf/schema.go,
from the specification that python3-otf2 installs (run with /usr/bin/python3).

Usage: layouts.py events|defs
"""
import sys
sys.path.insert(0, '/usr/share/otf2/python')
import otf2 as spec
def code(a, defs=False):
    t = a.type
    base = getattr(t, 'c_orig', t.c)
    comp = isinstance(t, spec.CompressedType)
    if defs and t.c == 'OTF2_StringRef' and a.name != 'self':
        return 'S'  # a reference to a String definition
    if base == 'OTF2_AttributeValue': return 'v'
    if base == 'const OTF2_IdMap*': return 'M'
    if base == 'const char*': return 's'
    if base == 'OTF2_MetricValue': return 'C'
    if comp:
        if base in ('uint32_t','int32_t'): return 'c'
        if base in ('uint64_t','int64_t'): return 'C'
        raise Exception('comp '+base)
    m = {'uint8_t':'b','int8_t':'b','uint16_t':'h','int16_t':'h','uint32_t':'i','int32_t':'i','float':'i','uint64_t':'T','int64_t':'T','double':'T','OTF2_TimeStamp':'T'}
    if base in m: return m[base]
    raise Exception('type '+base+' '+a.name)
def layout(r, defs=False):
    out=''
    cur=str(r.since)
    for a in r.record_attributes:
        v=str(a.since)
        if v!=cur:
            out+='|'; cur=v
        c=code(a, defs)
        if hasattr(a,'array_attributes'):
            c+='('+''.join(code(b, defs) for b in a.array_attributes)+')'
        out+=c
    return out
kind=sys.argv[1]
if kind=='events':
    for r in spec.events: print(r.id, r.name, layout(r) or '.', 'S' if r.singleton else '-')
else:
    for r in spec.defs:
        k=type(r).__name__.replace('DefRecord','') or 'Both'
        print(r.id, k, r.name, layout(r, True))
