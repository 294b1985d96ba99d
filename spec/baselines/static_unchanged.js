export function scale(t, times, enabled, names) {
    // Every predicate here is a number, boolean or array: emitted exactly as written.
    if (!enabled || times <= 0)
        return t;
    let out = t;
    for (let i = 0; i < times; i++) {
        if (i % 2 === 0 && names.length > 0)
            continue;
        out = out.mul(2);
    }
    while (names.length > 3)
        names.pop();
    for (const name of names)
        if (name)
            out = out.add(1);
    return enabled ? out : t;
}
