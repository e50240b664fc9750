// Herald's API documentation page (served at /docs/api/): Swagger UI from Herald itself (no CDN),
// on the OpenAPI document of the page's language. A file rather than an inline script, so the
// page works under Herald's Content-Security-Policy (script-src 'self').
(() => {
  const root = document.getElementById('swagger-ui');
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.spec,
    domNode: root,
    deepLinking: true,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Swagger UI would otherwise send the document to its online validator.
    validatorUrl: null,
    docExpansion: 'list',
    // Operations are many: a box filters them by module (tag).
    filter: true,
    defaultModelsExpandDepth: 0,
    displayOperationId: false,
  });
})();
