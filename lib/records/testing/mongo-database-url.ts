/**
 * The same MongoDB URL pointing at another database: the path after the hosts replaced, options
 * kept. By hand, because multi-host URLs are not WHATWG URLs.
 */
export function withMongoDatabase(url: string, database: string): string {
  const queryStart = url.search(/[?#]/);
  const beforeQuery = queryStart === -1 ? url : url.slice(0, queryStart);
  const rest = queryStart === -1 ? "" : url.slice(queryStart);
  const schemeEnd = beforeQuery.indexOf("://") + 3;
  const hostsEnd = beforeQuery.indexOf("/", Math.max(schemeEnd, beforeQuery.lastIndexOf("@") + 1));
  const hosts = hostsEnd === -1 ? beforeQuery : beforeQuery.slice(0, hostsEnd);
  return `${hosts}/${encodeURIComponent(database)}${rest}`;
}
