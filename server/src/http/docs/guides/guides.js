// Copy buttons for the samples of the guides, and one language choice for every sample on the
// page. The tabs themselves switch with CSS alone; this file only adds conveniences.
for (const sample of document.querySelectorAll('.sample')) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = sample.dataset.copy;
  button.addEventListener('click', async () => {
    const checked = sample.querySelector('input:checked');
    const pre = sample.querySelector(`pre[data-lang="${checked ? checked.value : 'curl'}"]`);
    if (!pre) return;
    await navigator.clipboard.writeText(pre.textContent);
    button.textContent = sample.dataset.copied;
    setTimeout(() => {
      button.textContent = sample.dataset.copy;
    }, 1500);
  });
  sample.prepend(button);
}

document.addEventListener('change', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.closest('.sample')) return;
  try {
    localStorage.setItem('herald-guides-language', input.value);
  } catch {}
  for (const other of document.querySelectorAll(`.sample input[value="${input.value}"]`))
    other.checked = true;
});

try {
  const saved = localStorage.getItem('herald-guides-language');
  if (saved)
    for (const input of document.querySelectorAll(`.sample input[value="${saved}"]`)) input.checked = true;
} catch {}
