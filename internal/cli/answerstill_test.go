package cli

// stillShows is what an answer adds when the pane still shows the dialog
// a second after the keys (answer_test.go's stand-in draws it on).
const stillShows = " — its dialog still showed 1s later: look at the pane (lanes attach api)"
