import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createFlowContext } from "@/lib/flow/engine/context";
import { escapeCsvField } from "@/lib/flow/engine/escape-csv-field";
import { escapeXml } from "@/lib/flow/engine/escape-xml";
import { renderEndpointResponse, renderResponseBody } from "./render-response";

const SCRIPT = "<script>alert(1)</script>";
const ATTRIBUTE_BREAKOUT = '"><img src=x onerror=alert(1)>';
const CDATA_END = "]]>";

const scope = createFlowContext({
  body: {
    script: SCRIPT,
    attribute: ATTRIBUTE_BREAKOUT,
    single: "' onmouseover='alert(1)",
    cdataEnd: CDATA_END,
    amp: "Tom & Jerry",
    hyperlink: '=HYPERLINK("http://evil")',
    plus: "+1",
    minus: "-2",
    at: "@SUM(A1)",
    tabLead: "\t=1+1",
    crLead: "\r=1+1",
    quoted: 'say "hi"',
    comma: "a,b",
    newline: "line1\nline2",
    crlf: "row\r\nnext",
    plain: "Ann",
    object: { tag: SCRIPT, formula: "=1+1" },
    list: ["<b>", "a,b"],
    negative: -2,
    number: 42,
    nothing: null,
    truth: true,
    control: "a\u0001b\u0000c",
  },
});

function render(contentType: Parameters<typeof renderResponseBody>[0], template: string): string {
  return renderResponseBody(contentType, template, scope);
}

describe("text/html answers", () => {
  it("escape every inserted value for markup, in element content and attributes", () => {
    expect(render("text/html", "<h1>Hello {{body.script}}</h1>")).toBe("<h1>Hello &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect(render("text/html", '<a title="{{body.attribute}}">x</a>')).toBe('<a title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">x</a>');
    expect(render("text/html", "<a title='{{body.single}}'>x</a>")).toBe("<a title='&#39; onmouseover=&#39;alert(1)'>x</a>");
    expect(render("text/html", "<p>{{body.amp}}</p>")).toBe("<p>Tom &amp; Jerry</p>");
  });

  it("escape non-string values after writing them as JSON", () => {
    expect(render("text/html", "<pre>{{body.object}}</pre>")).toBe(
      "<pre>{&quot;tag&quot;:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;,&quot;formula&quot;:&quot;=1+1&quot;}</pre>",
    );
    expect(render("text/html", "{{body.number}} {{body.negative}} {{body.nothing}} {{body.truth}}")).toBe("42 -2 null true");
  });

  it("serve the owner's own markup verbatim, and an unknown placeholder as written", () => {
    expect(render("text/html", "<script>go()</script>{{body.missing}}")).toBe("<script>go()</script>{{body.missing}}");
  });

  it("do not render a value's own placeholders", () => {
    const trick = createFlowContext({ body: { trick: "{{body.secret}}", secret: "s3cret" } });
    expect(renderResponseBody("text/html", "<p>{{body.trick}}</p>", trick)).toBe("<p>{{body.secret}}</p>");
  });
});

describe("application/xml answers", () => {
  it("escape & < > \" ' in every inserted value", () => {
    expect(render("application/xml", "<note>{{body.script}}</note>")).toBe("<note>&lt;script&gt;alert(1)&lt;/script&gt;</note>");
    expect(render("application/xml", '<note by="{{body.attribute}}"/>')).toBe('<note by="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"/>');
    expect(render("application/xml", "<note by='{{body.single}}'/>")).toBe("<note by='&#39; onmouseover=&#39;alert(1)'/>");
    expect(render("application/xml", "<n>{{body.amp}}</n>")).toBe("<n>Tom &amp; Jerry</n>");
  });

  it("a value cannot close an owner's CDATA section", () => {
    const rendered = render("application/xml", "<n><![CDATA[{{body.cdataEnd}}<evil/>]]></n>");
    expect(rendered).toBe("<n><![CDATA[]]&gt;<evil/>]]></n>");
    // The section still ends only where the owner ended it.
    expect(rendered.indexOf("]]>")).toBe(rendered.lastIndexOf("]]>"));
  });

  it("replaces characters XML 1.0 cannot carry, so the document stays well-formed", () => {
    expect(render("application/xml", "<n>{{body.control}}</n>")).toBe("<n>a\uFFFDb\uFFFDc</n>");
    expect(escapeXml("tab\tlf\ncr\r")).toBe("tab\tlf\ncr\r");
    expect(escapeXml("\uD83D\uDE00 \uD83D")).toBe("\uD83D\uDE00 \uFFFD");
  });

  it("escape non-string values after writing them as JSON", () => {
    expect(render("application/xml", "<n>{{body.list}}</n><m>{{body.nothing}}</m>")).toBe("<n>[&quot;&lt;b&gt;&quot;,&quot;a,b&quot;]</n><m>null</m>");
  });
});

describe("text/csv answers", () => {
  it("neutralise a leading = + - @ tab or CR in text", () => {
    expect(render("text/csv", "link\n{{body.hyperlink}}\n")).toBe('link\n"\'=HYPERLINK(""http://evil"")"\n');
    expect(render("text/csv", "{{body.plus}},{{body.minus}},{{body.at}}")).toBe("'+1,'-2,'@SUM(A1)");
    expect(render("text/csv", "{{body.tabLead}}")).toBe("'\t=1+1");
    expect(render("text/csv", "{{body.crLead}}")).toBe('"\'\r=1+1"');
  });

  it("quote a value holding a quote, comma or line break as one field", () => {
    expect(render("text/csv", "{{body.quoted}},{{body.comma}},{{body.newline}},{{body.crlf}}")).toBe('"say ""hi""","a,b","line1\nline2","row\r\nnext"');
  });

  it("leave plain values bare, so existing exports keep their shape", () => {
    expect(render("text/csv", "name\n{{body.plain}}\n")).toBe("name\nAnn\n");
  });

  it("write numbers as numbers, and objects, arrays, null and booleans as one field of JSON", () => {
    expect(render("text/csv", "{{body.negative}},{{body.number}},{{body.nothing}},{{body.truth}}")).toBe("-2,42,null,true");
    expect(render("text/csv", "{{body.object}}")).toBe('"{""tag"":""<script>alert(1)</script>"",""formula"":""=1+1""}"');
    expect(render("text/csv", "{{body.list}}")).toBe('"[""<b>"",""a,b""]"');
  });

  it("every field reads back as the value itself, behind the formula guard", () => {
    for (const value of ['a "b", c', "x\r\ny", '"', ",", "=1+2", "plain"]) {
      const field = escapeCsvField(value, value);
      const unquoted = field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
      expect(unquoted.replace(/^'(?=[=+\-@\t\r])/, "")).toBe(value);
      if (!field.startsWith('"')) expect(field).not.toMatch(/[",\r\n]/);
    }
  });
});

describe("text/plain answers", () => {
  it("insert values verbatim", () => {
    expect(render("text/plain", "{{body.script}} {{body.hyperlink}} {{body.comma}}")).toBe(`${SCRIPT} =HYPERLINK("http://evil") a,b`);
  });
});

describe("application/json answers", () => {
  it("escape values inside string literals and keep step outputs typed", () => {
    const rendered = render("application/json", '{"name": "{{body.attribute}}", "count": {{body.number}}}');
    expect(JSON.parse(rendered)).toEqual({ name: ATTRIBUTE_BREAKOUT, count: 42 });
  });

  it("serve text that is not JSON as a JSON string of the plainly rendered text", () => {
    expect(JSON.parse(render("application/json", 'Ticket "{{body.quoted}}" is closed'))).toBe('Ticket "say "hi"" is closed');
  });
});

describe("renderEndpointResponse", () => {
  it("renders the body for its content type and names the type with a charset", () => {
    const rendered = renderEndpointResponse({ status: 200, contentType: "text/html", body: "<h1>{{body.script}}</h1>", headers: {} }, scope);
    expect(rendered).toEqual({ status: 200, contentType: "text/html; charset=utf-8", body: "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>", headers: {} });
  });

  it("hands the log the value a JSON body of exactly one step output was written from, and nothing otherwise", () => {
    const context = createFlowContext({});
    const rows = [{ id: "r1", title: "a" }];
    context.steps.list = rows;
    const whole = renderEndpointResponse({ status: 200, contentType: "application/json", body: "{{steps.list}}", headers: {} }, context);
    expect(whole.body).toBe(JSON.stringify(rows));
    expect(whole.bodyValue).toBe(rows);
    const wrapped = renderEndpointResponse({ status: 200, contentType: "application/json", body: '{"data": {{steps.list}}}', headers: {} }, context);
    expect(JSON.parse(wrapped.body)).toEqual({ data: rows });
    expect("bodyValue" in wrapped).toBe(false);
    expect("bodyValue" in renderEndpointResponse({ status: 200, contentType: "application/json", body: "{{steps.missing}}", headers: {} }, context)).toBe(false);
  });
});

describe("values nested too deeply to write as text", () => {
  // A 20 KB body nests 10 000 levels: JSON.stringify overflows the stack on it.
  const deep = createFlowContext({ body: JSON.parse(`{"a": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`) as Record<string, unknown> });
  deep.steps.t = (deep.body as { a: unknown }).a;

  it("fail the answer with an AppError, not a RangeError", () => {
    for (const contentType of ["text/html", "application/xml", "text/csv", "text/plain"] as const) {
      expect(() => renderResponseBody(contentType, "<p>{{body.a}}</p>", deep)).toThrow(AppError);
    }
    expect(() => renderResponseBody("application/json", "{{steps.t}}", deep)).toThrow(AppError);
    expect(() => renderResponseBody("application/json", '{"a": {{body.a}}}', deep)).toThrow(AppError);
  });
});
