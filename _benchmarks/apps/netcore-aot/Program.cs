// netcore-aot: the simple comparison on ASP.NET Core with Native AOT.
// Kestrel serves one minimal API endpoint, GET /api/values/{id}, whose
// string result ASP.NET Core writes as text/plain; charset=utf-8. With
// PublishAot the Request Delegate Generator turns the lambda into code at
// compile time, so no reflection runs at request time.
//
// The builder is CreateSlimBuilder, as in the Web API (Native AOT)
// template: the minimum of hosting features (no HTTPS, no HTTP/3, no IIS
// integration, no hosting startup assemblies), which keeps the executable
// small; none of the omitted features takes part in this comparison.
//
// Logging providers are cleared, so nothing is logged during load; the two
// readiness lines are printed here in the same words every app of the suite
// uses, followed by the "Runtime: ..." line of the netcore apps (GC mode,
// processor count, environment). The address is --urls / ASPNETCORE_URLS
// when given, else http://127.0.0.1:$PORT (5000).
//
// Sessions are not offered with Native AOT: ASP.NET Core's Native AOT
// compatibility table lists the Session middleware as not supported, and
// AddSession carries RequiresUnreferencedCode ("Session State middleware
// does not currently support trimming or native AOT"), so publishing
// netcore-sessions with PublishAot warns IL2026. A trial publish of it built
// and answered GET /setget here (.NET 10.0.12), but the suite measures
// supported configurations only: the sessions comparison has no AOT row.

using System.Runtime;

// Always the Production environment, whatever ASPNETCORE_ENVIRONMENT says.
var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions
{
    Args = args,
    EnvironmentName = Environments.Production,
});
builder.Logging.ClearProviders();
if (string.IsNullOrEmpty(builder.Configuration["urls"]))
{
    var port = Environment.GetEnvironmentVariable("PORT") ?? "5000";
    builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
}

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
    Console.WriteLine($"Runtime: .NET {Environment.Version} (Native AOT); GC: {gc}, {concurrent}; processors: {Environment.ProcessorCount}; environment: {app.Environment.EnvironmentName}");
});

app.Run();
