import type { SampleLanguage } from './send-samples.ts';

/**
 * One form-encoded call of the SendCloud-compatible API written in every sample language. A field
 * is a plain string, or a JSON document (`xsmtpapi`, `headers`), which each language writes in
 * its own idiom so the developer edits an object, not an escaped string. Every sample prints the
 * answer's envelope (`{result, statusCode, message, info}`) as it came.
 */
export type FormValue = string | { json: Record<string, unknown> };
export type FormFields = [name: string, value: FormValue][];

/** A value inside a single-quoted shell word. */
export const sh = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
/** A value inside a double-quoted string of JavaScript, Python, Java or Go. */
export const dq = (value: string) => JSON.stringify(value);
/** A value inside a single-quoted PHP string (no `$` interpolation to worry about). */
export const sq = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const jsonText = (value: FormValue) => (typeof value === 'string' ? value : JSON.stringify(value.json));

export function formSamples(
  url: string,
  fields: FormFields,
  javaClass: string,
): Record<SampleLanguage, string> {
  const width = Math.max(...fields.map(([name]) => name.length));
  return {
    curl: [
      `curl -s ${sh(url)} \\`,
      ...fields.map(
        ([name, value], i) =>
          `  --data-urlencode ${name}=${sh(jsonText(value))}${i < fields.length - 1 ? ' \\' : ''}`,
      ),
    ].join('\n'),
    node: [
      '// Node 18 or later: fetch is built in.',
      `const response = await fetch(${dq(url)}, {`,
      `  method: 'POST',`,
      '  body: new URLSearchParams({',
      ...fields.map(([name, value]) =>
        typeof value === 'string'
          ? `    ${name}: ${dq(value)},`
          : `    ${name}: JSON.stringify(${indentJson(value.json, '    ')}),`,
      ),
      '  }),',
      '});',
      'const answer = await response.json();',
      '// result is false and statusCode names the problem when the call failed.',
      'console.log(JSON.stringify(answer));',
    ].join('\n'),
    python: [
      '# Python 3, standard library only.',
      'import json, urllib.parse, urllib.request',
      '',
      'fields = {',
      ...fields.map(([name, value]) =>
        typeof value === 'string'
          ? `    ${dq(name)}: ${dq(value)},`
          : `    ${dq(name)}: json.dumps(${indentJson(value.json, '    ')}),`,
      ),
      '}',
      'body = urllib.parse.urlencode(fields).encode()',
      `with urllib.request.urlopen(${dq(url)}, data=body) as response:`,
      '    answer = json.load(response)',
      'print(json.dumps(answer, ensure_ascii=False))',
    ].join('\n'),
    java: [
      `// Java 11 or later: run with \`java ${javaClass}.java\`.`,
      'import java.net.URI;',
      'import java.net.URLEncoder;',
      'import java.net.http.HttpClient;',
      'import java.net.http.HttpRequest;',
      'import java.net.http.HttpResponse;',
      'import java.nio.charset.StandardCharsets;',
      'import java.util.LinkedHashMap;',
      'import java.util.Map;',
      'import java.util.stream.Collectors;',
      '',
      `public class ${javaClass} {`,
      '  public static void main(String[] args) throws Exception {',
      '    Map<String, String> fields = new LinkedHashMap<>();',
      ...fields.map(([name, value]) => `    fields.put(${dq(name)}, ${dq(jsonText(value))});`),
      '    String body = fields.entrySet().stream()',
      '        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))',
      '        .collect(Collectors.joining("&"));',
      `    HttpRequest request = HttpRequest.newBuilder(URI.create(${dq(url)}))`,
      '        .header("Content-Type", "application/x-www-form-urlencoded")',
      '        .POST(HttpRequest.BodyPublishers.ofString(body))',
      '        .build();',
      '    HttpResponse<String> response = HttpClient.newHttpClient()',
      '        .send(request, HttpResponse.BodyHandlers.ofString());',
      '    System.out.println(response.body());',
      '  }',
      '}',
    ].join('\n'),
    php: [
      '<?php',
      `$ch = curl_init(${sq(url)});`,
      'curl_setopt_array($ch, [',
      '    CURLOPT_POST => true,',
      '    CURLOPT_RETURNTRANSFER => true,',
      '    CURLOPT_POSTFIELDS => http_build_query([',
      ...fields.map(([name, value]) => `        ${sq(name)} => ${sq(jsonText(value))},`),
      '    ]),',
      ']);',
      '$answer = json_decode(curl_exec($ch), true);',
      'echo json_encode($answer, JSON_UNESCAPED_UNICODE), "\\n";',
    ].join('\n'),
    go: [
      'package main',
      '',
      'import (',
      '\t"fmt"',
      '\t"io"',
      '\t"net/http"',
      '\t"net/url"',
      ')',
      '',
      'func main() {',
      `\tresponse, err := http.PostForm(${dq(url)}, url.Values{`,
      ...fields.map(([name, value]) => {
        const key = `${dq(name)}:`.padEnd(width + 3);
        return typeof value === 'string'
          ? `\t\t${key} {${dq(value)}},`
          : `\t\t${key} {\`${jsonText(value)}\`},`;
      }),
      '\t})',
      '\tif err != nil {',
      '\t\tpanic(err)',
      '\t}',
      '\tdefer response.Body.Close()',
      '\tbody, _ := io.ReadAll(response.Body)',
      '\tfmt.Println(string(body))',
      '}',
    ].join('\n'),
  };
}

/** A JSON document laid out over lines, each continued line indented by `indent` (valid JS and Python). */
export function indentJson(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}
