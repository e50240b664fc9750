/**
 * A template's HTML shown as is, in a frame with `sandbox=""`: no scripts, no forms, no
 * same-origin access, no top navigation. Templates keep their HTML unsanitised (it is what the
 * mail carries), so this frame is the one safe way the console displays it.
 */
export function TemplateFrame({
  html,
  title,
  height = 560,
}: {
  html: string;
  title: string;
  height?: number;
}) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={html}
      className="template-frame"
      data-testid="template-frame"
      style={{ width: '100%', height, border: '1px solid #e5e6eb', borderRadius: 6, background: '#fff' }}
    />
  );
}
