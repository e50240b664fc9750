/**
 * Copy-ready samples of a first `mail/send` call, one per language, written from the caller's own
 * values: the API base URL, the API_USER and a from address on its domain. The key is never
 * filled in (the console does not have it): every sample reads `API_KEY_PLACEHOLDER`, which the
 * developer replaces. The integration page shows these; a server test runs the curl, Node and
 * Python ones against a live Herald, so what is shown is what works.
 */
export const SAMPLE_LANGUAGES = ['curl', 'node', 'python', 'java', 'php', 'go'] as const;
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number];

export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

export interface SampleValues {
  /** Herald's public base URL, without a trailing slash (`https://mail.example.com`). */
  baseUrl: string;
  apiUser: string;
  from: string;
  to: string;
  subject: string;
  html: string;
}

/** A value inside a single-quoted shell word. */
const sh = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
/** A value inside a double-quoted string of JavaScript, Python, Java, PHP or Go. */
const dq = (value: string) => JSON.stringify(value);

export function sendSamples(v: SampleValues): Record<SampleLanguage, string> {
  const url = `${v.baseUrl}/apiv2/mail/send`;
  return {
    curl: [
      `curl -s ${sh(url)} \\`,
      `  --data-urlencode apiUser=${sh(v.apiUser)} \\`,
      `  --data-urlencode apiKey=${sh(API_KEY_PLACEHOLDER)} \\`,
      `  --data-urlencode from=${sh(v.from)} \\`,
      `  --data-urlencode to=${sh(v.to)} \\`,
      `  --data-urlencode subject=${sh(v.subject)} \\`,
      `  --data-urlencode html=${sh(v.html)}`,
    ].join('\n'),
    node: [
      '// Node 18 or later: fetch is built in.',
      `const response = await fetch(${dq(url)}, {`,
      `  method: 'POST',`,
      '  body: new URLSearchParams({',
      `    apiUser: ${dq(v.apiUser)},`,
      `    apiKey: ${dq(API_KEY_PLACEHOLDER)},`,
      `    from: ${dq(v.from)},`,
      `    to: ${dq(v.to)},`,
      `    subject: ${dq(v.subject)},`,
      `    html: ${dq(v.html)},`,
      '  }),',
      '});',
      'console.log(await response.json());',
    ].join('\n'),
    python: [
      '# Python 3, standard library only.',
      'import json, urllib.parse, urllib.request',
      '',
      'fields = {',
      `    "apiUser": ${dq(v.apiUser)},`,
      `    "apiKey": ${dq(API_KEY_PLACEHOLDER)},`,
      `    "from": ${dq(v.from)},`,
      `    "to": ${dq(v.to)},`,
      `    "subject": ${dq(v.subject)},`,
      `    "html": ${dq(v.html)},`,
      '}',
      'body = urllib.parse.urlencode(fields).encode()',
      `with urllib.request.urlopen(${dq(url)}, data=body) as response:`,
      '    print(json.load(response))',
    ].join('\n'),
    java: [
      '// Java 11 or later: run with `java SendMail.java`.',
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
      'public class SendMail {',
      '  public static void main(String[] args) throws Exception {',
      '    Map<String, String> fields = new LinkedHashMap<>();',
      `    fields.put("apiUser", ${dq(v.apiUser)});`,
      `    fields.put("apiKey", ${dq(API_KEY_PLACEHOLDER)});`,
      `    fields.put("from", ${dq(v.from)});`,
      `    fields.put("to", ${dq(v.to)});`,
      `    fields.put("subject", ${dq(v.subject)});`,
      `    fields.put("html", ${dq(v.html)});`,
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
      `$ch = curl_init(${dq(url)});`,
      'curl_setopt_array($ch, [',
      '    CURLOPT_POST => true,',
      '    CURLOPT_RETURNTRANSFER => true,',
      '    CURLOPT_POSTFIELDS => http_build_query([',
      `        "apiUser" => ${dq(v.apiUser)},`,
      `        "apiKey" => ${dq(API_KEY_PLACEHOLDER)},`,
      `        "from" => ${dq(v.from)},`,
      `        "to" => ${dq(v.to)},`,
      `        "subject" => ${dq(v.subject)},`,
      `        "html" => ${dq(v.html)},`,
      '    ]),',
      ']);',
      'echo curl_exec($ch);',
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
      '\tresponse, err := http.PostForm(' + dq(url) + ', url.Values{',
      `\t\t"apiUser": {${dq(v.apiUser)}},`,
      `\t\t"apiKey":  {${dq(API_KEY_PLACEHOLDER)}},`,
      `\t\t"from":    {${dq(v.from)}},`,
      `\t\t"to":      {${dq(v.to)}},`,
      `\t\t"subject": {${dq(v.subject)}},`,
      `\t\t"html":    {${dq(v.html)}},`,
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

/** How a submission port is secured: plain (STARTTLS offered when a certificate is set), STARTTLS required, or TLS from the first byte. */
export type SmtpSecurity = 'none' | 'starttls-optional' | 'starttls' | 'tls';

/** What the integration page shows: where to send, from the deployment's configuration. */
export interface IntegrationView {
  apiBaseUrl: string;
  docsUrl: string;
  smtpHost: string;
  smtpPorts: { port: number; security: SmtpSecurity }[];
}
