// Asks the API route for the server's time and shows it.
fetch("/api/time")
  .then((res) => res.json())
  .then((data) => { document.getElementById("time").textContent = data.time; });
