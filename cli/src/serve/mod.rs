//! `grail serve`: the table in a browser. A local web page, bound to 127.0.0.1 on a free
//! port (or the one asked for), its page built into the binary and nothing fetched from the
//! network: play any game against bots from one seat, watch bots play, step through a
//! replay or a save, open a balance report. Each seat is sent only what it may see
//! ([`tables`]); Ctrl-C stops the server cleanly.

mod assets;
mod report;
mod routes;
pub mod tables;

use std::io::Write;
use std::sync::Arc;

use clap::Args;

use crate::content::Content;
use crate::exit::{CliResult, failure};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on, on 127.0.0.1 (default: a free one, printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
}

pub fn run(args: &ServeArgs, content: Content) -> CliResult {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| failure("cannot-serve", format!("cannot start the server: {e}")))?;
    runtime.block_on(serve(args.port, content))
}

async fn serve(port: u16, content: Content) -> CliResult {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| {
            failure(
                "cannot-serve",
                format!("cannot listen on 127.0.0.1:{port}: {e}"),
            )
        })?;
    let port = listener
        .local_addr()
        .map_err(|e| failure("cannot-serve", format!("cannot read the port: {e}")))?
        .port();
    let shared = routes::Shared {
        tables: Arc::new(tables::Tables::new(content)),
        port,
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "grail serve: http://127.0.0.1:{port}/ (Ctrl-C stops it)"
    );
    let _ = out.flush();
    drop(out);
    axum::serve(listener, routes::router(shared))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| failure("cannot-serve", format!("the server stopped: {e}")))?;
    eprintln!("grail serve: stopped");
    Ok(())
}
