// tfb-netcore: TechEmpower's six test types on ASP.NET Core, a Kestrel
// minimal API as the aspnetcore entry's Minimal app writes them: MapGet
// lambdas, results serialised by System.Text.Json, the fortunes page by a
// Razor Slice (Slices/Fortunes.cshtml) with an HtmlEncoder that lets the
// Japanese fortune and the em dash through unescaped, as theirs, and
// Npgsql for PostgreSQL (Db.cs). Kestrel sends the Server and Date headers.
//
// Logging providers are cleared; the readiness lines and the "Runtime:"
// line are printed as by the suite's other ASP.NET Core apps. The address
// is --urls / ASPNETCORE_URLS when given, else http://127.0.0.1:$PORT.

using System.Runtime;
using System.Text.Encodings.Web;
using System.Text.Unicode;
using TfbNetCore;

var builder = WebApplication.CreateBuilder(new WebApplicationOptions
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

var url = Environment.GetEnvironmentVariable("DATABASE_URL")
    ?? throw new InvalidOperationException("DATABASE_URL is not set");
var poolSize = int.TryParse(Environment.GetEnvironmentVariable("DB_POOL"), out var p) && p > 0 ? p : 32;
builder.Services.AddSingleton(new Db(Db.FromUrl(url, poolSize)));

var app = builder.Build();

var encoderSettings = new TextEncoderSettings(UnicodeRanges.BasicLatin, UnicodeRanges.Katakana, UnicodeRanges.Hiragana);
encoderSettings.AllowCharacter('\u2014');
var htmlEncoder = HtmlEncoder.Create(encoderSettings);

app.MapGet("/plaintext", () => "Hello, World!");

app.MapGet("/json", () => new { message = "Hello, World!" });

app.MapGet("/db", (Db db) => db.OneWorld());

app.MapGet("/queries", (Db db, string? queries) => db.Worlds(Db.ParseQueries(queries)));

app.MapGet("/updates", (Db db, string? queries) => db.UpdateWorldRows(Db.ParseQueries(queries)));

app.MapGet("/fortunes", async (Db db) =>
{
    var result = Results.Extensions.RazorSlice<TfbNetCore.Slices.Fortunes, List<Fortune>>(await db.Fortunes());
    result.HtmlEncoder = htmlEncoder;
    return result;
});

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
