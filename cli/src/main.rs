fn main() {
    println!("grail: under construction");
}
