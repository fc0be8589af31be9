// netcore-h2: the h2 comparison on ASP.NET Core. Kestrel serves the simple
// comparison's minimal API endpoint, GET /api/values/{id} (its string
// result written as text/plain; charset=utf-8), over TLS on
// 127.0.0.1:$PORT with HTTP/1.1 and HTTP/2 offered by ALPN
// (HttpProtocols.Http1AndHttp2), the certificate and key read from the PEM
// files in TLS_CERT_FILE and TLS_KEY_FILE.
//
// Logging providers are cleared, so nothing is logged during load; the two
// readiness lines are printed here in the words every app of the suite
// uses (Now listening on: https://...), followed by the "Runtime: ..."
// line of the netcore apps (GC mode, processor count, environment).

using System.Net;
using System.Runtime;
using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.Server.Kestrel.Core;

// Always the Production environment, whatever ASPNETCORE_ENVIRONMENT says.
var builder = WebApplication.CreateBuilder(new WebApplicationOptions
{
    Args = args,
    EnvironmentName = Environments.Production,
});
builder.Logging.ClearProviders();
var port = int.Parse(Environment.GetEnvironmentVariable("PORT") ?? "5000");
var certificate = X509Certificate2.CreateFromPemFile(
    Environment.GetEnvironmentVariable("TLS_CERT_FILE") ?? "cert.pem",
    Environment.GetEnvironmentVariable("TLS_KEY_FILE") ?? "key.pem");
builder.WebHost.ConfigureKestrel(kestrel =>
{
    kestrel.Listen(IPAddress.Loopback, port, listen =>
    {
        listen.Protocols = HttpProtocols.Http1AndHttp2;
        listen.UseHttps(certificate);
    });
});

var app = builder.Build();

app.MapGet("/api/values/{id}", (int id) => "value");

app.Lifetime.ApplicationStarted.Register(() =>
{
    foreach (var address in app.Urls)
    {
        Console.WriteLine($"Now listening on: {address}");
    }
    Console.WriteLine("Application started. Press CTRL+C to shut down.");
    var gc = GCSettings.IsServerGC ? "server" : "workstation";
    var concurrent = GCSettings.LatencyMode == GCLatencyMode.Batch ? "non-concurrent" : "concurrent";
    Console.WriteLine($"Runtime: .NET {Environment.Version}; GC: {gc}, {concurrent}; processors: {Environment.ProcessorCount}; environment: {app.Environment.EnvironmentName}");
});

app.Run();
