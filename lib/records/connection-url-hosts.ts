/**
 * Every host a connection string names, with its port when the URL gives one (MongoDB seed lists
 * name several). Hosts come percent-decoded (left as written when that fails) and IPv6 hosts
 * without brackets. Parsed by hand: multi-host URLs are not WHATWG URLs.
 */
export function connectionUrlHosts(url: string): Array<{ host: string; port: number | undefined }> {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/?#]+)/i.exec(url);
  if (!match?.[1]) return [];
  return match[1].split(",").map((part) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(part);
    if (bracketed) return { host: bracketed[1] ?? "", port: bracketed[2] ? Number(bracketed[2]) : undefined };
    const colon = part.lastIndexOf(":");
    const portText = colon === -1 ? "" : part.slice(colon + 1);
    return { host: decodedOrAsWritten(colon === -1 ? part : part.slice(0, colon)), port: portText ? Number(portText) : undefined };
  });
}

function decodedOrAsWritten(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
