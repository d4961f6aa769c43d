func.func @twice() {
  func.return
}
func.func @twice() {
  func.return
}
